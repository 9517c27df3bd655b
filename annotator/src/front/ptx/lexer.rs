//! Tokens of PTX text. Directives, opcodes and registers keep their dots
//! (`.reg`, `ld.global.f32`, `%tid.x`) and are one token each.

/// A token kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok<'a> {
    /// An identifier, directive, opcode, register or label name.
    Ident(&'a str),
    /// A numeric literal as written (`12`, `0x1f`, `0f3F800000`, `7.8`).
    Number(&'a str),
    /// A string literal without its quotes.
    Str(&'a str),
    /// One punctuation character: `; , { } [ ] ( ) @ ! + - < > | : =`.
    Punct(char),
}

/// A token and the (1-based) line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub tok: Tok<'a>,
    /// Its line in the PTX text.
    pub line: u32,
}

/// A character the lexer does not accept, or an unterminated string or comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// The line.
    pub line: u32,
    /// What went wrong.
    pub message: String,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

/// Splits PTX text into tokens; comments are dropped.
pub fn tokenize(src: &str) -> Result<Vec<Token<'_>>, LexError> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::with_capacity(src.len() / 4);
    let mut line = 1u32;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let start_line = line;
                i += 2;
                loop {
                    if i + 1 >= bytes.len() {
                        return Err(LexError {
                            line: start_line,
                            message: "unterminated /* comment".into(),
                        });
                    }
                    if bytes[i] == b'*' && bytes[i + 1] == b'/' {
                        i += 2;
                        break;
                    }
                    if bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    if bytes[j] == b'\\' {
                        j += 1;
                    }
                    if j < bytes.len() && bytes[j] == b'\n' {
                        return Err(LexError {
                            line,
                            message: "unterminated string".into(),
                        });
                    }
                    j += 1;
                }
                if j >= bytes.len() {
                    return Err(LexError {
                        line,
                        message: "unterminated string".into(),
                    });
                }
                tokens.push(Token {
                    tok: Tok::Str(&src[start..j]),
                    line,
                });
                i = j + 1;
            }
            c if c.is_ascii_digit() => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                tokens.push(Token {
                    tok: Tok::Number(&src[start..i]),
                    line,
                });
            }
            c if is_ident_start(c) => {
                let start = i;
                i += 1;
                while i < bytes.len() && is_ident_continue(bytes[i]) {
                    i += 1;
                }
                tokens.push(Token {
                    tok: Tok::Ident(&src[start..i]),
                    line,
                });
            }
            b';' | b',' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'@' | b'!' | b'+' | b'-'
            | b'<' | b'>' | b'|' | b':' | b'=' => {
                tokens.push(Token {
                    tok: Tok::Punct(c as char),
                    line,
                });
                i += 1;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(LexError {
                    line,
                    message: format!("unexpected character {ch:?}"),
                });
            }
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_dotted_names_whole() {
        let toks =
            tokenize("@!%p1 ld.global.v4.f32 {%f1, %f2}, [%rd1+16]; // c\n mov.u32 %r1, %tid.x;")
                .unwrap();
        let kinds: Vec<_> = toks.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(kinds[0], Tok::Punct('@'));
        assert_eq!(kinds[1], Tok::Punct('!'));
        assert_eq!(kinds[2], Tok::Ident("%p1"));
        assert_eq!(kinds[3], Tok::Ident("ld.global.v4.f32"));
        assert!(kinds.contains(&Tok::Number("16")));
        assert!(kinds.contains(&Tok::Ident("%tid.x")));
        assert_eq!(toks.last().unwrap().line, 2);
    }

    #[test]
    fn rejects_unterminated_comment() {
        assert_eq!(tokenize("a /* b\n c").unwrap_err().line, 1);
    }
}
