//! Kernels that other kernels call as functions (OpenCL allows it; the CTS does it): the
//! twin cannot have one function be both a kernel that writes a record and a function
//! that takes its caller's counters, so the file is annotated as rewritten with a copy of
//! each such kernel as a plain function, `__srcsim_called_<name>`, which the calls go to.
//! The copies follow the file's last line and each gets a prototype on the first line of
//! every function that calls it, so every line of the file keeps its number; the kernels
//! themselves are as written. The file is rewritten only where its first annotation refused
//! such kernels; where the rewritten file cannot be annotated, that annotation stands
//! ([`super::refusals`]).

use crate::front::source::{AstNode, NodeKind, SourceFile, SourceFunction};

/// The prefix of a called kernel's copy.
pub const COPY_PREFIX: &str = "__srcsim_called_";

/// `text` (the file `source` was parsed from) with every kernel another function calls
/// copied as a plain function and the calls sent to the copy; `None` where no kernel is
/// called, or a call or a definition is not where the parse says (a macro).
pub(super) fn with_called_kernels(text: &str, source: &SourceFile) -> Option<String> {
    let kernels: Vec<&SourceFunction> = source
        .functions
        .iter()
        .filter(|f| is_kernel(text, f))
        .collect();
    // Every call, and the function it is in.
    let mut calls = Vec::new();
    let mut callers: Vec<(&SourceFunction, &str)> = Vec::new();
    for f in &source.functions {
        let before = calls.len();
        collect_calls(&f.body, &kernels, &mut calls);
        for &(_, k) in &calls[before..] {
            if !callers.iter().any(|(g, c)| g.name == f.name && *c == k) {
                callers.push((f, k));
            }
        }
    }
    if calls.is_empty() {
        return None;
    }
    let called: Vec<&SourceFunction> = kernels
        .iter()
        .copied()
        .filter(|k| calls.iter().any(|(_, name)| *name == k.name))
        .collect();
    // Each call's callee name, at the call's start, becomes the copy's.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for &(at, name) in &calls {
        if text.get(at..at + name.len()) != Some(name) {
            return None;
        }
        edits.push((at, name.len(), format!("{COPY_PREFIX}{name}")));
    }
    let mut copies = String::new();
    for k in &called {
        let (start, end) = (k.extent.start.offset as usize, k.extent.end.offset as usize);
        let definition = edited(text, start, end, &edits);
        let body_at = (k.body.extent.start.offset as usize).checked_sub(start)?;
        let (header, body) = definition.split_at(body_at.min(definition.len()));
        let header = plain_header(header, &k.name)?;
        copies.push_str(&format!("\n{header}{body}"));
        // The prototype on the first line of every function that calls it (a caller may
        // come before the kernel, which it knew by an `extern` prototype: the units of a
        // linked program, joined).
        for (caller, _) in callers.iter().filter(|(_, c)| *c == k.name) {
            let at = caller.extent.start.offset as usize;
            edits.push((at, 0, format!("{}; ", header.trim())));
        }
    }
    // The kernels' own prototypes go (blanked, their lines kept): nothing calls the
    // kernels by name now, and the annotation gives a kernel's definition its records'
    // parameter, which a prototype would contradict.
    for k in &called {
        for (at, len) in prototypes(text, source, &k.name) {
            let blank: String = text[at..at + len]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            edits.push((at, len, blank));
        }
    }
    let mut out = edited(text, 0, text.len(), &edits);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&copies);
    out.push('\n');
    Some(out)
}

/// The prototypes of kernel `name` outside every function: (start, length) of each
/// declaration `... kernel void name(...);`, from the end of what comes before it.
fn prototypes(text: &str, source: &SourceFile, name: &str) -> Vec<(usize, usize)> {
    let inside = |at: usize| {
        source
            .functions
            .iter()
            .any(|f| (f.extent.start.offset as usize..f.extent.end.offset as usize).contains(&at))
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let at = from + found;
        from = at + name.len();
        let before_ok = text[..at].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[from..].trim_start();
        if !before_ok || !after.starts_with('(') || inside(at) {
            continue;
        }
        // The declaration: from the last `;`, `}` or directive line before it to its `;`.
        let start = text[..at].rfind([';', '}']).map_or(0, |i| i + 1).max(
            // A preprocessor line ends a declaration's reach too.
            text[..at]
                .match_indices('\n')
                .filter(|(i, _)| text[i + 1..].trim_start().starts_with('#'))
                .map(|(i, _)| text[i + 1..].find('\n').map_or(text.len(), |e| i + 1 + e))
                .filter(|&e| e <= at)
                .max()
                .unwrap_or(0),
        );
        let open = text.len() - after.len();
        let Some(close) = matching_paren(text, open) else {
            continue;
        };
        let rest = text[close + 1..].trim_start();
        let words: Vec<&str> = text[start..at].split(|c: char| !ident(c)).collect();
        if rest.starts_with(';') && words.into_iter().any(kernel_word) {
            let semi = text.len() - rest.len();
            out.push((start, semi + 1 - start));
        }
    }
    out
}

/// The index of the `)` that closes the `(` at `open`.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `f` is a kernel: `kernel` or `__kernel` in its definition before its body.
fn is_kernel(text: &str, f: &SourceFunction) -> bool {
    let header = text
        .get(f.extent.start.offset as usize..f.body.extent.start.offset as usize)
        .unwrap_or("");
    header.split(|c: char| !ident(c)).any(kernel_word)
}

/// Whether `c` can be part of an identifier.
fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `w` is the kernel qualifier.
fn kernel_word(w: &str) -> bool {
    w == "kernel" || w == "__kernel"
}

/// Every call of one of `kernels` under `node`: where it starts, and the kernel.
fn collect_calls<'a>(
    node: &AstNode,
    kernels: &[&'a SourceFunction],
    out: &mut Vec<(usize, &'a str)>,
) {
    if node.kind == NodeKind::Call && !node.in_macro {
        if let Some(k) = kernels.iter().find(|k| k.name == node.spelling) {
            out.push((node.extent.start.offset as usize, k.name.as_str()));
        }
    }
    for c in &node.children {
        collect_calls(c, kernels, out);
    }
}

/// `text[start..end]` with the `edits` (at, length replaced, replacement) inside it.
fn edited(text: &str, start: usize, end: usize, edits: &[(usize, usize, String)]) -> String {
    let mut inside: Vec<&(usize, usize, String)> = edits
        .iter()
        .filter(|(at, len, _)| *at >= start && at + len <= end)
        .collect();
    inside.sort_by_key(|(at, _, _)| *at);
    let mut out = String::with_capacity(end - start);
    let mut from = start;
    for (at, len, with) in inside {
        out.push_str(&text[from..*at]);
        out.push_str(with);
        from = at + len;
    }
    out.push_str(&text[from..end]);
    out
}

/// A kernel's header as a plain function's: without `kernel`/`__kernel` and the
/// attributes only kernels take, and named as its copy.
fn plain_header(header: &str, name: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = header;
    while let Some(at) = rest.find("__attribute__") {
        out.push_str(&rest[..at]);
        // Skip the attribute's parenthesised list.
        let after = &rest[at + "__attribute__".len()..];
        rest = &after[matching_paren(after, after.find('(')?)? + 1..];
    }
    out.push_str(rest);
    let words: Vec<&str> = out.split_inclusive(|c: char| !ident(c)).collect();
    let mut plain = String::new();
    let mut renamed = false;
    for w in words {
        let word = w.trim_end_matches(|c: char| !ident(c));
        let tail = &w[word.len()..];
        if kernel_word(word) {
            plain.push_str(tail);
        } else if word == name && !renamed {
            plain.push_str(COPY_PREFIX);
            plain.push_str(name);
            plain.push_str(tail);
            renamed = true;
        } else {
            plain.push_str(w);
        }
    }
    renamed.then_some(plain)
}

#[cfg(test)]
mod tests {
    use super::plain_header;

    #[test]
    fn a_kernel_header_becomes_a_plain_functions_named_as_its_copy() {
        assert_eq!(
            plain_header("__kernel void scale(__global float *a, float s) ", "scale").as_deref(),
            Some(" void __srcsim_called_scale(__global float *a, float s) ")
        );
        assert_eq!(
            plain_header(
                "kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(global int *k_out)\n",
                "k"
            )
            .as_deref(),
            Some("  void __srcsim_called_k(global int *k_out)\n")
        );
        assert_eq!(plain_header("void other(int x)", "k"), None);
    }
}
