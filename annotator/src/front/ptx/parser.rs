//! The PTX parser: tokens -> module-level directives and functions -> statements (the
//! basic blocks with successors: `blocks.rs`).

use super::blocks::{build_blocks, Stmt};
use super::lexer::{tokenize, Tok, Token};
use super::*;

/// Parses PTX text into a [`Module`].
pub fn parse(src: &str) -> Result<Module, ParseError> {
    let toks = tokenize(src).map_err(|e| ParseError {
        line: e.line,
        message: e.message,
    })?;
    Parser {
        toks,
        pos: 0,
        nesting: 0,
    }
    .module()
}

/// How deeply operands may nest (`{...}`, `(...)`, `a|b`); PTX itself nests one level.
/// The limit keeps the recursive operand parser from overflowing the stack.
const MAX_OPERAND_NESTING: usize = 32;

struct Parser<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
    /// Depth of the operand being parsed.
    nesting: usize,
}

fn describe(tok: Option<&Tok<'_>>) -> String {
    match tok {
        None => "end of input".into(),
        Some(Tok::Ident(s)) | Some(Tok::Number(s)) => format!("`{s}`"),
        Some(Tok::Str(s)) => format!("\"{s}\""),
        Some(Tok::Punct(c)) => format!("`{c}`"),
    }
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Tok<'a>> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok<'a>> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    fn line(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.line)
    }

    fn next(&mut self) -> Option<Tok<'a>> {
        let t = self.toks.get(self.pos).map(|t| t.tok.clone());
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line(),
            message: message.into(),
        })
    }

    fn unexpected<T>(&self, what: &str) -> Result<T, ParseError> {
        self.err(format!("expected {what}, found {}", describe(self.peek())))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.unexpected(&format!("`{c}`"))
        }
    }

    fn expect_ident(&mut self, what: &str) -> Result<&'a str, ParseError> {
        match self.peek() {
            Some(&Tok::Ident(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => self.unexpected(what),
        }
    }

    fn expect_number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        match self.peek() {
            Some(&Tok::Number(s)) => match s.parse() {
                Ok(v) => {
                    self.pos += 1;
                    Ok(v)
                }
                Err(_) => self.err(format!("{what} `{s}` is out of range")),
            },
            _ => self.unexpected(what),
        }
    }

    /// The tokens from here to the end of the current line (directives without `;`).
    fn rest_of_line(&mut self) -> Vec<Tok<'a>> {
        let line = self.line();
        let mut out = Vec::new();
        while self.pos < self.toks.len() && self.toks[self.pos].line == line {
            out.push(self.toks[self.pos].tok.clone());
            self.pos += 1;
        }
        out
    }

    /// Skips to just after the next `;` outside braces (initialisers may hold braces).
    fn skip_statement(&mut self) -> Result<(), ParseError> {
        let mut depth = 0i32;
        loop {
            match self.next() {
                None => return self.err("missing `;`"),
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                Some(Tok::Punct(';')) if depth <= 0 => return Ok(()),
                _ => {}
            }
        }
    }

    /// Skips a balanced `{ ... }` group (debug sections).
    fn skip_braces(&mut self) -> Result<(), ParseError> {
        self.expect_punct('{')?;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                None => return self.err("unterminated `{`"),
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn module(mut self) -> Result<Module, ParseError> {
        let mut m = Module::default();
        while let Some(tok) = self.peek().cloned() {
            match tok {
                Tok::Ident(".version") => {
                    self.next();
                    m.version = Some(
                        self.rest_of_line()
                            .iter()
                            .map(|t| match t {
                                Tok::Number(s) | Tok::Ident(s) => s.to_string(),
                                _ => String::new(),
                            })
                            .collect(),
                    );
                }
                Tok::Ident(".target") => {
                    self.next();
                    m.target = self
                        .rest_of_line()
                        .into_iter()
                        .filter_map(|t| match t {
                            Tok::Ident(s) => Some(s.to_string()),
                            _ => None,
                        })
                        .collect();
                }
                Tok::Ident(".address_size") => {
                    self.next();
                    m.address_size = Some(self.expect_number("an address size")?);
                }
                Tok::Ident(".file") => {
                    let line = self.line();
                    self.next();
                    let parts = self.rest_of_line();
                    let index = match parts.first() {
                        Some(Tok::Number(n)) => n.parse().ok(),
                        _ => None,
                    };
                    // `.file 1 "dir" "name"` (LLVM) or `.file 1 "path"[, time, size]`.
                    let strs: Vec<&str> = parts
                        .iter()
                        .filter_map(|t| match t {
                            Tok::Str(s) => Some(*s),
                            _ => None,
                        })
                        .collect();
                    let path = match strs.as_slice() {
                        [dir, name] if !name.starts_with('/') && !dir.is_empty() => {
                            format!("{dir}/{name}")
                        }
                        [.., name] => name.to_string(),
                        [] => String::new(),
                    };
                    match index {
                        Some(i) if !strs.is_empty() => m.files.push((i, path)),
                        _ => {
                            return Err(ParseError {
                                line,
                                message: "malformed `.file` directive".into(),
                            })
                        }
                    }
                }
                Tok::Ident(".section") => {
                    self.next();
                    self.expect_ident("a section name")?;
                    if self.peek() == Some(&Tok::Punct('{')) {
                        self.skip_braces()?;
                    }
                }
                Tok::Ident(".visible" | ".extern" | ".weak" | ".common") => {
                    self.next();
                }
                Tok::Ident(".entry") => {
                    let f = self.function(FunctionKind::Kernel)?;
                    m.functions.push(f);
                }
                Tok::Ident(".func") => {
                    let f = self.function(FunctionKind::Function)?;
                    m.functions.push(f);
                }
                Tok::Ident(".global" | ".shared" | ".const" | ".local") => {
                    let v = self.variable()?;
                    m.variables.push(v);
                }
                Tok::Ident(
                    ".tex" | ".texref" | ".surfref" | ".samplerref" | ".pragma" | ".alias",
                ) => self.skip_statement()?,
                Tok::Punct(';') => {
                    self.next();
                }
                _ => return self.unexpected("a directive"),
            }
        }
        Ok(m)
    }

    /// A variable declaration: `.shared .align 4 .b8 k_$_tile[1024];`,
    /// `.global .u32 n = 3;`, `.extern .shared .align 16 .b8 dynamic[];`.
    fn variable(&mut self) -> Result<Variable, ParseError> {
        let ptx_line = self.line();
        let start = self.pos;
        self.skip_statement()?;
        let toks: Vec<Tok<'a>> = self.toks[start..self.pos]
            .iter()
            .map(|t| t.tok.clone())
            .take_while(|t| !matches!(t, Tok::Punct('=' | ';')))
            .collect();
        let space = match toks.first() {
            Some(Tok::Ident(s)) => s.to_string(),
            _ => unreachable!("called at a state-space directive"),
        };
        let mut element_bytes = 0;
        let mut lanes = 1;
        let mut name = None;
        let mut elements = 1u64;
        let mut iter = toks.iter().skip(1).peekable();
        while let Some(t) = iter.next() {
            match t {
                Tok::Ident(".align") => {
                    iter.next();
                }
                Tok::Ident(".v2") => lanes = 2,
                Tok::Ident(".v4") => lanes = 4,
                Tok::Ident(ty) if ty.starts_with('.') => {
                    element_bytes = element_bytes.max(type_bytes(ty));
                }
                Tok::Ident(n) if name.is_none() => name = Some(n.to_string()),
                Tok::Punct('[') => {
                    // `[N]`, or `[]` for an unsized (dynamic) array.
                    match iter.next() {
                        Some(Tok::Number(n)) => {
                            elements = elements.saturating_mul(n.parse().unwrap_or(0));
                            iter.next();
                        }
                        _ => elements = 0,
                    }
                }
                _ => {}
            }
        }
        let Some(name) = name else {
            return Err(ParseError {
                line: ptx_line,
                message: format!("`{space}` declaration without a name"),
            });
        };
        Ok(Variable {
            space,
            name,
            bytes: elements.saturating_mul(element_bytes * lanes),
            ptx_line,
        })
    }

    fn param_list(&mut self) -> Result<Vec<String>, ParseError> {
        self.expect_punct('(')?;
        let mut params = Vec::new();
        let mut cur: Vec<String> = Vec::new();
        loop {
            match self.next() {
                None => return self.err("unterminated parameter list"),
                Some(Tok::Punct(')')) => break,
                Some(Tok::Punct(',')) => params.push(std::mem::take(&mut cur).join(" ")),
                Some(Tok::Ident(s)) | Some(Tok::Number(s)) => cur.push(s.to_string()),
                Some(Tok::Punct(c)) => cur.push(c.to_string()),
                Some(Tok::Str(s)) => cur.push(format!("\"{s}\"")),
            }
        }
        if !cur.is_empty() {
            params.push(cur.join(" "));
        }
        Ok(params)
    }

    fn function(&mut self, kind: FunctionKind) -> Result<Function, ParseError> {
        let ptx_line = self.line();
        self.next();
        let returns = if kind == FunctionKind::Function && self.peek() == Some(&Tok::Punct('(')) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let name = self.expect_ident("a function name")?.to_string();
        let params = if self.peek() == Some(&Tok::Punct('(')) {
            self.param_list()?
        } else {
            Vec::new()
        };
        let mut f = Function {
            name,
            kind,
            params,
            returns,
            registers: Vec::new(),
            locals: Vec::new(),
            has_body: false,
            blocks: Vec::new(),
            ptx_line,
        };
        // Performance directives (.maxntid 256, 1, 1; .reqntid; .noreturn; ...).
        loop {
            match self.peek() {
                Some(Tok::Punct('{')) => {
                    let stmts = self.body(&mut f)?;
                    f.blocks = build_blocks(stmts, ptx_line)?;
                    f.has_body = true;
                    return Ok(f);
                }
                Some(Tok::Punct(';')) => {
                    self.next();
                    return Ok(f);
                }
                Some(Tok::Ident(d)) if d.starts_with('.') => {
                    self.next();
                }
                Some(Tok::Number(_)) | Some(Tok::Punct(',')) => {
                    self.next();
                }
                _ => return self.unexpected("a function body or `;`"),
            }
        }
    }

    fn body(&mut self, f: &mut Function) -> Result<Vec<Stmt>, ParseError> {
        self.expect_punct('{')?;
        let mut depth = 1;
        let mut stmts = Vec::new();
        let mut loc: Option<SourceLoc> = None;
        loop {
            let line = self.line();
            let Some(tok) = self.peek().cloned() else {
                return self.err(format!(
                    "body of `{}` (PTX line {}) is not closed",
                    f.name, f.ptx_line
                ));
            };
            match tok {
                Tok::Punct('{') => {
                    self.next();
                    depth += 1;
                }
                Tok::Punct('}') => {
                    self.next();
                    depth -= 1;
                    if depth == 0 {
                        return Ok(stmts);
                    }
                }
                Tok::Punct(';') => {
                    self.next();
                }
                Tok::Ident(".reg") => {
                    self.next();
                    self.reg_decls(f)?;
                }
                Tok::Ident(".local" | ".shared" | ".param" | ".const" | ".global") => {
                    let v = self.variable()?;
                    f.locals.push(v);
                }
                Tok::Ident(".loc") => {
                    self.next();
                    loc = Some(self.loc()?);
                }
                Tok::Ident(".pragma") => self.skip_statement()?,
                Tok::Ident(name) if self.peek_at(1) == Some(&Tok::Punct(':')) => {
                    self.pos += 2;
                    match self.peek() {
                        Some(Tok::Ident(".branchtargets")) => {
                            self.next();
                            let mut targets = Vec::new();
                            loop {
                                targets.push(self.expect_ident("a branch target")?.to_string());
                                if !self.eat_punct(',') {
                                    break;
                                }
                            }
                            self.expect_punct(';')?;
                            stmts.push(Stmt::BranchTable(name.to_string(), targets));
                        }
                        Some(Tok::Ident(".callprototype" | ".calltargets")) => {
                            self.skip_statement()?
                        }
                        _ => stmts.push(Stmt::Label(name.to_string(), line)),
                    }
                }
                Tok::Punct('@') => {
                    self.next();
                    let negated = self.eat_punct('!');
                    let reg = match self.peek() {
                        Some(&Tok::Ident(r)) if r.starts_with('%') => {
                            self.pos += 1;
                            r.to_string()
                        }
                        _ => return self.unexpected("a guard predicate register"),
                    };
                    let mut instr = self.instruction(line)?;
                    instr.guard = Some(Guard { reg, negated });
                    instr.loc = loc.clone();
                    stmts.push(Stmt::Instr(instr));
                }
                Tok::Ident(op) if !op.starts_with('.') && !op.starts_with('%') => {
                    let mut instr = self.instruction(line)?;
                    instr.loc = loc.clone();
                    stmts.push(Stmt::Instr(instr));
                }
                _ => return self.unexpected("an instruction, label or directive"),
            }
        }
    }

    fn reg_decls(&mut self, f: &mut Function) -> Result<(), ParseError> {
        let mut ty = Vec::new();
        while let Some(&Tok::Ident(t)) = self.peek() {
            if !t.starts_with('.') {
                break;
            }
            ty.push(t);
            self.next();
        }
        if ty.is_empty() {
            return self.unexpected("a register type");
        }
        let ty = ty.join(" ");
        loop {
            let name = self.expect_ident("a register name")?.to_string();
            let count = if self.eat_punct('<') {
                let n = self.expect_number("a register count")?;
                self.expect_punct('>')?;
                Some(n)
            } else {
                None
            };
            f.registers.push(RegDecl {
                ty: ty.clone(),
                name,
                count,
            });
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';')
    }

    /// `.loc file line col [, function_name sym[+off]] [, inlined_at file line col]`.
    fn loc(&mut self) -> Result<SourceLoc, ParseError> {
        let mut loc = SourceLoc {
            file: self.expect_number("a file index")?,
            line: self.expect_number("a line")?,
            col: 0,
            inlined_at: None,
        };
        if let Some(Tok::Number(_)) = self.peek() {
            loc.col = self.expect_number("a column")?;
        }
        while self.eat_punct(',') {
            match self.expect_ident("`function_name` or `inlined_at`")? {
                "function_name" => {
                    self.expect_ident("a function name label")?;
                    if self.eat_punct('+') {
                        self.expect_number::<u64>("an offset")?;
                    }
                }
                "inlined_at" => {
                    let file = self.expect_number("a file index")?;
                    let line = self.expect_number("a line")?;
                    let col = match self.peek() {
                        Some(Tok::Number(_)) => self.expect_number("a column")?,
                        _ => 0,
                    };
                    loc.inlined_at = Some(Box::new(SourceLoc {
                        file,
                        line,
                        col,
                        inlined_at: None,
                    }));
                }
                other => return self.err(format!("unknown `.loc` attribute `{other}`")),
            }
        }
        Ok(loc)
    }

    fn instruction(&mut self, line: u32) -> Result<Instruction, ParseError> {
        let opcode = self.expect_ident("an opcode")?.to_string();
        let mut operands = Vec::new();
        if !self.eat_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(',') {
                    continue;
                }
                if self.eat_punct(';') {
                    break;
                }
                return self.unexpected("`,` or `;` after an operand");
            }
        }
        Ok(Instruction {
            guard: None,
            opcode,
            operands,
            loc: None,
            ptx_line: line,
        })
    }

    fn operand_list(&mut self, close: char) -> Result<Vec<Operand>, ParseError> {
        let mut items = Vec::new();
        if self.eat_punct(close) {
            return Ok(items);
        }
        loop {
            items.push(self.operand()?);
            if self.eat_punct(',') {
                continue;
            }
            self.expect_punct(close)?;
            return Ok(items);
        }
    }

    fn signed_number(&mut self) -> Result<i64, ParseError> {
        let negative = self.eat_punct('-');
        let text = match self.peek() {
            Some(&Tok::Number(s)) => {
                self.pos += 1;
                s
            }
            _ => return self.unexpected("a number"),
        };
        let value = if let Some(hex) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
            i64::from_str_radix(hex.trim_end_matches(['U', 'u']), 16).ok()
        } else {
            text.trim_end_matches(['U', 'u']).parse().ok()
        };
        match value {
            Some(v) => Ok(if negative { -v } else { v }),
            None => self.err(format!("bad address offset `{text}`")),
        }
    }

    fn operand(&mut self) -> Result<Operand, ParseError> {
        if self.nesting >= MAX_OPERAND_NESTING {
            return self.err("operands nested too deeply");
        }
        self.nesting += 1;
        let operand = self.nested_operand();
        self.nesting -= 1;
        operand
    }

    fn nested_operand(&mut self) -> Result<Operand, ParseError> {
        // LLVM places debug labels inside multi-line call statements
        // (`call.uni (retval0),\n$L__tmp3:\nfoo, (param0);`): they are no operands.
        while matches!(self.peek(), Some(Tok::Ident(_)))
            && self.peek_at(1) == Some(&Tok::Punct(':'))
        {
            self.pos += 2;
        }
        let before = self.pos;
        let op = match self.next() {
            Some(Tok::Punct('{')) => Operand::Vector(self.operand_list('}')?),
            Some(Tok::Punct('(')) => Operand::List(self.operand_list(')')?),
            Some(Tok::Punct('[')) => {
                let base = match self.peek() {
                    Some(&Tok::Ident(s)) => {
                        self.next();
                        Some(Box::new(if s.starts_with('%') {
                            Operand::Reg {
                                name: s.to_string(),
                                negated: false,
                            }
                        } else {
                            Operand::Symbol(s.to_string())
                        }))
                    }
                    _ => None,
                };
                // `[sym]`, `[%r+8]`, `[%r+-8]`, `[%r-8]` or an absolute `[64]`.
                let has_offset =
                    base.is_none() || self.eat_punct('+') || self.peek() == Some(&Tok::Punct('-'));
                let offset = if has_offset { self.signed_number()? } else { 0 };
                self.expect_punct(']')?;
                Operand::Address { base, offset }
            }
            Some(Tok::Punct('!')) => {
                let name = self.expect_ident("a predicate")?.to_string();
                Operand::Reg {
                    name,
                    negated: true,
                }
            }
            Some(Tok::Punct('-')) => match self.peek() {
                Some(&Tok::Number(n)) => {
                    self.pos += 1;
                    Operand::Imm(format!("-{n}"))
                }
                _ => return self.unexpected("a number after `-`"),
            },
            Some(Tok::Number(n)) => Operand::Imm(n.to_string()),
            Some(Tok::Ident(s)) if s.starts_with('%') => Operand::Reg {
                name: s.to_string(),
                negated: false,
            },
            Some(Tok::Ident(s)) => {
                // `sym+8` in address arithmetic of moves.
                if self.peek() == Some(&Tok::Punct('+')) {
                    self.next();
                    let off = self.signed_number()?;
                    Operand::Symbol(format!("{s}+{off}"))
                } else {
                    Operand::Symbol(s.to_string())
                }
            }
            _ => {
                self.pos = before;
                return self.unexpected("an operand");
            }
        };
        if self.eat_punct('|') {
            let second = self.operand()?;
            return Ok(Operand::Pair(Box::new(op), Box::new(second)));
        }
        Ok(op)
    }
}

/// Bytes of one element of a PTX type (`.b8` 1, `.f32` 4, `.u64` 8, ...); 0 if unknown.
fn type_bytes(ty: &str) -> u64 {
    let bits: String = ty.chars().filter(|c| c.is_ascii_digit()).collect();
    match (ty, bits.parse::<u64>()) {
        (".pred", _) => 1,
        (_, Ok(b)) if b >= 8 && b % 8 == 0 => b / 8,
        _ => 0,
    }
}
