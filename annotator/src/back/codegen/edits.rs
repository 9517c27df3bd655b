//! Edits of the source text: where calls, parameters and braces go, and applying them.

use super::{CodegenError, KernelTiming, STATE};
use crate::front::source::cfg::Insertion;
use crate::front::source::{AstNode, Extent, NodeKind, SourceFile, SourceFunction};

/// An insertion into the source text. At one offset, closers come first, then statement
/// wrappers (outer first), then calls, then kernel-exit writes, then expression wrappers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Edit {
    pub(super) offset: u32,
    pub(super) class: u8,
    /// Tie-break within a class: for openers the negated end (outer first), for closers
    /// the negated start (inner first).
    pub(super) nesting: i64,
    pub(super) text: String,
}

pub(super) const CLOSE: u8 = 0;
pub(super) const OPEN_STATEMENT: u8 = 1;
pub(super) const CALL: u8 = 2;
pub(super) const EXIT: u8 = 3;
pub(super) const OPEN_EXPRESSION: u8 = 4;

/// Puts `open(return)` and `return ...;` in braces at every return of `f` (braces keep
/// `if (c) return;` one statement), and `at_end` before the closing brace of its body.
pub(super) fn wrap_returns(
    file: &SourceFile,
    f: &SourceFunction,
    open: impl Fn(&AstNode) -> String,
    at_end: &str,
    edits: &mut Vec<Edit>,
) -> Result<(), CodegenError> {
    let text = file.text.as_bytes();
    let mut in_macro = None;
    for_each(&f.body, &mut |n| {
        if n.kind != NodeKind::Return {
            return;
        }
        if n.in_macro {
            in_macro.get_or_insert(n.extent.start.line);
            return;
        }
        let mut end = n.extent.end.offset as usize;
        while end < text.len() && text[end] != b';' {
            end += 1;
        }
        let end = (end + 1).min(text.len()) as u32;
        edits.push(Edit {
            offset: n.extent.start.offset,
            class: EXIT,
            nesting: -i64::from(end),
            text: open(n),
        });
        edits.push(Edit {
            offset: end,
            class: CLOSE,
            nesting: -i64::from(n.extent.start.offset),
            text: " }".into(),
        });
    });
    if let Some(line) = in_macro {
        return Err(CodegenError::ReturnInMacro {
            path: file.path.display().to_string(),
            line,
            kernel: f.name.clone(),
        });
    }
    edits.push(Edit {
        offset: f.body.extent.end.offset - 1,
        class: EXIT,
        nesting: 0,
        text: format!(" {at_end} "),
    });
    Ok(())
}

/// What ends code inserted before a statement that starts with a directive on `line`
/// (`#pragma unroll`): a directive must start its line, and `#line` keeps the numbers of
/// the original lines.
pub(super) fn directive_break(directive: Option<u32>) -> String {
    directive.map_or_else(String::new, |line| format!("\n#line {line}\n"))
}

pub(super) fn insertion(ins: Insertion, call: &str) -> Vec<Edit> {
    match ins {
        Insertion::Before { offset, directive } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: format!(" {call};{}", directive_break(directive)),
        }],
        Insertion::WrapStatement {
            start,
            end,
            directive,
        } => vec![
            Edit {
                offset: start,
                class: OPEN_STATEMENT,
                nesting: -i64::from(end),
                text: format!("{{ {call}; {}", directive_break(directive)),
            },
            Edit {
                offset: end,
                class: CLOSE,
                nesting: -i64::from(start),
                text: " }".into(),
            },
        ],
        Insertion::WrapExpression { start, end } => vec![
            Edit {
                offset: start,
                class: OPEN_EXPRESSION,
                nesting: -i64::from(end),
                text: format!("({call}, ("),
            },
            Edit {
                offset: end,
                class: CLOSE,
                nesting: -i64::from(start),
                text: "))".into(),
            },
        ],
        Insertion::EmptyCondition { offset } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: format!("({call}, 1)"),
        }],
        Insertion::EmptyIncrement { offset } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: call.to_string(),
        }],
        Insertion::Nothing => Vec::new(),
    }
}

/// An extra last parameter for `f`: before the `)` that closes its parameter list.
pub(super) fn param_edits(file: &SourceFile, f: &SourceFunction, param: &str) -> Vec<Edit> {
    let text = file.text.as_bytes();
    let mut close = f.body.extent.start.offset as usize;
    while close > 0 && text[close] != b')' {
        close -= 1;
    }
    let mut open = close;
    let mut depth = 0;
    while open > 0 {
        match text[open] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        open -= 1;
    }
    parameter_list_edits(file, open, close, param)
}

/// `param` as the last parameter of the list between the parentheses at `open` and
/// `close`.
pub(super) fn parameter_list_edits(
    file: &SourceFile,
    open: usize,
    close: usize,
    param: &str,
) -> Vec<Edit> {
    let inside = file.text[open + 1..close].trim();
    if inside == "void" {
        // `f(void)`: `void, x` is invalid; the `void` is commented out.
        vec![
            Edit {
                offset: (open + 1) as u32,
                class: CLOSE,
                nesting: i64::MIN,
                text: format!("{param} /*"),
            },
            Edit {
                offset: close as u32,
                class: CLOSE,
                nesting: i64::MIN,
                text: "*/".into(),
            },
        ]
    } else {
        vec![Edit {
            offset: close as u32,
            class: CLOSE,
            nesting: i64::MIN,
            text: if inside.is_empty() {
                param.to_string()
            } else {
                format!(", {param}")
            },
        }]
    }
}

pub(super) fn for_each(n: &AstNode, f: &mut dyn FnMut(&AstNode)) {
    f(n);
    for c in &n.children {
        for_each(c, f);
    }
}

/// The prototypes of `h` before its definition (`float scale(float x, float s);` at file
/// scope) get the new parameter as the definition does, so that both keep one signature.
/// Mentions inside function bodies are calls, which the call edits handle.
pub(super) fn prototype_edits(
    file: &SourceFile,
    h: &SourceFunction,
    param: &str,
) -> Result<Vec<Edit>, CodegenError> {
    let text = file.text.as_bytes();
    let before = &file.text[..h.extent.start.offset as usize];
    let in_a_body = |pos: usize| {
        file.functions.iter().any(|f| {
            (f.body.extent.start.offset as usize..f.body.extent.end.offset as usize).contains(&pos)
        })
    };
    let refuse = |pos: usize| CodegenError::Prototype {
        path: file.path.display().to_string(),
        line: before[..pos].matches('\n').count() as u32 + 1,
        function: h.name.clone(),
    };
    let pattern = format!("{}(", h.name);
    let mut edits = Vec::new();
    let mut from = 0;
    while let Some(at) = before[from..].find(&pattern) {
        let pos = from + at;
        from = pos + pattern.len();
        let prev = before[..pos].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || c == '_') || in_a_body(pos) {
            continue;
        }
        // A preprocessor line (a macro that names the helper) cannot be rewritten. A call
        // in a macro's body (`#define CELL(p) cell_index((p).x)`: the name after `(`, `,`,
        // an operator) is no declaration: the kernels that expand it are refused where
        // the call is (CallThroughMacro), the others are annotated. A name after a word or
        // `*` may declare it (`#define P float cell_index(int)`): refused, the whole file.
        let line_start = before[..pos].rfind('\n').map_or(0, |n| n + 1);
        if before[line_start..pos].trim_start().starts_with('#') {
            let after_word = before[line_start..pos]
                .trim_end()
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '*');
            if after_word {
                return Err(refuse(pos));
            }
            continue;
        }
        let open = pos + h.name.len();
        let mut depth = 0;
        let mut close = None;
        for (i, &c) in text.iter().enumerate().skip(open) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.ok_or_else(|| refuse(pos))?;
        edits.extend(parameter_list_edits(file, open, close, param));
    }
    Ok(edits)
}

/// `text` with the code of every extent replaced by spaces, its line breaks kept (so that
/// every other offset and line stays where it was) and its preprocessor directives but
/// `#pragma` kept (a `#define` or `#if` inside a function still holds for the code after
/// it), each with its continuation lines.
pub(super) fn blank_out(text: &str, extents: impl Iterator<Item = Extent>) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for e in extents {
        let (start, end) = (
            e.start.offset as usize,
            (e.end.offset as usize).min(bytes.len()),
        );
        let mut i = start;
        let mut directive = false;
        while i < end {
            let line_start = i == 0 || text.as_bytes()[i - 1] == b'\n';
            if line_start && !directive {
                let rest = text[i..end].trim_start_matches([' ', '\t']);
                directive = rest.starts_with('#')
                    && !rest[1..]
                        .trim_start_matches([' ', '\t'])
                        .starts_with("pragma");
            }
            let line_end = text[i..end].find('\n').map_or(end, |n| i + n);
            if !directive {
                for b in &mut bytes[i..line_end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
            // A directive goes on past a line that ends with a backslash.
            directive = directive && text[i..line_end].trim_end().ends_with('\\');
            i = line_end + 1;
        }
    }
    String::from_utf8(bytes).expect("only ASCII bytes replaced whole characters")
}

pub(super) fn apply(text: &str, header: String, mut edits: Vec<Edit>) -> String {
    edits.sort();
    let mut out = header;
    out.reserve(text.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut at = 0usize;
    for e in edits {
        let offset = e.offset as usize;
        if offset > at {
            out.push_str(&text[at..offset]);
            at = offset;
        }
        out.push_str(&e.text);
    }
    out.push_str(&text[at..]);
    out
}

/// Helpers (the functions not timed as kernels and not left out) take the state as a last
/// parameter, in their prototypes too, and every call of a helper passes it. A call
/// spelled by a macro cannot be given it: an error.
pub(super) fn helper_edits(
    file: &SourceFile,
    kernels: &[KernelTiming<'_>],
    removed: &[&str],
    edits: &mut Vec<Edit>,
) -> Result<(), CodegenError> {
    let kernel_names: Vec<&str> = kernels
        .iter()
        .filter(|k| !k.called)
        .map(|k| k.map.kernel.as_str())
        .collect();
    let helpers: Vec<&SourceFunction> = file
        .functions
        .iter()
        .filter(|f| !kernel_names.contains(&f.name.as_str()) && !removed.contains(&f.name.as_str()))
        .collect();
    let helper_names: Vec<&str> = helpers.iter().map(|h| h.name.as_str()).collect();
    for h in &helpers {
        let param = format!("__private __srcsim_state *{STATE}");
        edits.extend(param_edits(file, h, &param));
        edits.extend(prototype_edits(file, h, &param)?);
    }
    let mut through_macro = None;
    for f in file
        .functions
        .iter()
        .filter(|f| !removed.contains(&f.name.as_str()))
    {
        for_each(&f.body, &mut |n| {
            if n.kind == NodeKind::Call && helper_names.contains(&n.spelling.as_str()) {
                if !file.text_of(&n.extent).starts_with(n.spelling.as_str()) {
                    through_macro.get_or_insert((n.extent.start.line, n.spelling.clone()));
                    return;
                }
                let has_args = n.children.len() > 1;
                edits.push(Edit {
                    offset: n.extent.end.offset - 1,
                    class: CLOSE,
                    nesting: i64::MIN,
                    text: if has_args {
                        format!(", {STATE}")
                    } else {
                        STATE.to_string()
                    },
                });
            }
        });
    }
    match through_macro {
        Some((line, function)) => Err(CodegenError::CallThroughMacro {
            path: file.path.display().to_string(),
            line,
            function,
        }),
        None => Ok(()),
    }
}
