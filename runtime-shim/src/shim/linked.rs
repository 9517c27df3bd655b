//! Programs built with `clCompileProgram` and `clLinkProgram`: each program compiled from
//! source is noted with its options and the headers it was given; an executable linked
//! from such programs is simulated as one source: their sources joined in link order,
//! each `#include` of a header the application gave by name replaced by the header's
//! text (as the preprocessor would; the annotator then sees a helper's prototype in the
//! file it rewrites), compiled with their options. A library (`-create-library`) passes
//! its programs on to the links that take it.
//!
//! Joining is what separate compilation means for a program whose units do not redefine
//! one another's names; where they might differ (other options, a macro one unit defines
//! that would reach the next, two headers of one name) the program runs as it is,
//! unsimulated, and the report says why. A joined source that does not compile (two
//! units' `static` functions of one name) is reported as any annotation failure.

use super::*;
use crate::shadow::CompiledUnit;

/// Why a linked program is not simulated.
const UNSEEN_UNIT: &str = "not simulated: linked from a program srcsim did not see compiled \
     from source";
const OPTIONS_DIFFER: &str = "not simulated: linked from programs compiled with different \
     options";
const MACRO_CROSSES: &str = "not simulated: linked from several programs, one of which \
     defines or undefines a macro (srcsim joins their sources into one for its twin, where \
     the macro would reach the programs after it)";
const HEADERS_DIFFER: &str = "not simulated: linked from programs given different headers \
     under one include name";
const HEADERS_TOO_DEEP: &str = "not simulated: its programs' headers include one another \
     more than 16 deep";
const LIBRARY: &str = "not simulated: a library (-create-library), whose kernels are \
     simulated in the programs it is linked into";

impl Shim {
    /// The application compiled `program` with `options` and `headers` (each header
    /// program by its include name): where the program and every header were created
    /// from source, notes the unit a later link joins.
    pub fn program_compiled(
        &self,
        program: Program,
        options: &str,
        headers: Vec<(String, Program)>,
    ) {
        let mut state = lock(&self.state);
        let source = match state.programs.get(&program).map(|p| &p.origin) {
            Some(ProgramOrigin::Source(source)) => source.clone(),
            _ => return,
        };
        let texts: Option<Vec<(String, String)>> = headers
            .into_iter()
            .map(
                |(name, h)| match state.programs.get(&h).map(|p| &p.origin) {
                    Some(ProgramOrigin::Source(text)) => Some((name, text.clone())),
                    _ => None,
                },
            )
            .collect();
        if let Some(p) = state.programs.get_mut(&program) {
            p.units = texts.map(|headers| {
                vec![CompiledUnit {
                    source,
                    options: options.to_string(),
                    headers,
                }]
            });
        }
    }

    /// The application linked `inputs` into `program` with `options` (for `devices`, or
    /// all of the context's when `None`): an executable of units srcsim saw compiled is
    /// annotated as their joined source and gets its twin, as a program built from
    /// source does; a library keeps the units for the links that take it.
    pub fn program_linked(
        &self,
        program: Program,
        inputs: &[Program],
        options: &str,
        devices: Option<Vec<Device>>,
    ) {
        let units: Option<Vec<CompiledUnit>> = {
            let state = lock(&self.state);
            inputs
                .iter()
                .map(|i| state.programs.get(i).and_then(|p| p.units.clone()))
                .collect::<Option<Vec<_>>>()
                .map(|u| u.concat())
        };
        if options.split_whitespace().any(|w| w == "-create-library") {
            self.program_created(program, ProgramOrigin::Opaque(LIBRARY));
            if let Some(p) = lock(&self.state).programs.get_mut(&program) {
                p.units = units;
            }
            return;
        }
        let origin = match units {
            Some(units) => joined(&units).map_or_else(ProgramOrigin::Opaque, ProgramOrigin::Known),
            None => ProgramOrigin::Opaque(UNSEEN_UNIT),
        };
        let known = matches!(origin, ProgramOrigin::Known(_));
        self.program_created(program, origin);
        if known {
            self.program_built(program, devices, options);
        }
    }
}

/// The one source `units` make (their headers' text in place of their includes), and
/// the options to compile it with: theirs, the same for all.
fn joined(units: &[CompiledUnit]) -> Result<MadeFrom, &'static str> {
    let first = units.first().ok_or(UNSEEN_UNIT)?;
    if units
        .iter()
        .any(|u| u.options.trim() != first.options.trim())
    {
        return Err(OPTIONS_DIFFER);
    }
    if units.len() > 1 && units.iter().any(|u| defines_macros(&u.source)) {
        return Err(MACRO_CROSSES);
    }
    let mut headers: Vec<(String, String)> = Vec::new();
    for (name, text) in units.iter().flat_map(|u| &u.headers) {
        match headers.iter().find(|(n, _)| n == name) {
            Some((_, t)) if t != text => return Err(HEADERS_DIFFER),
            Some(_) => {}
            None => headers.push((name.clone(), text.clone())),
        }
    }
    // One translation unit: a `#pragma once` header comes in once for all the units.
    let mut once = Vec::new();
    let mut parts = Vec::with_capacity(units.len());
    for u in units {
        parts.push(with_headers(&u.source, &headers, &mut once, 0).ok_or(HEADERS_TOO_DEEP)?);
    }
    let (source, options) = (parts.join("\n"), first.options.trim().to_string());
    Ok(MadeFrom { source, options })
}

/// Whether `source` defines or undefines a macro itself (a directive of its own text,
/// not of the headers it includes).
fn defines_macros(source: &str) -> bool {
    source
        .lines()
        .filter_map(directive)
        .any(|d| d.starts_with("define") || d.starts_with("undef"))
}

/// What follows the `#` of a preprocessor line (`  #  include "a.h"`: `include "a.h"`).
fn directive(line: &str) -> Option<&str> {
    Some(line.trim_start().strip_prefix('#')?.trim_start())
}

/// `source` with each line that includes one of `headers` (`#include "name"` or
/// `<name>`) replaced by that header's text, itself so expanded; a header that says
/// `#pragma once` only where `once` has not seen it yet. `None` past 16 levels.
fn with_headers(
    source: &str,
    headers: &[(String, String)],
    once: &mut Vec<String>,
    depth: usize,
) -> Option<String> {
    if depth > 16 {
        return None;
    }
    let mut out = String::with_capacity(source.len());
    for line in source.lines() {
        let header = included(line).and_then(|name| headers.iter().find(|(n, _)| n == name));
        match header {
            Some((name, text)) => {
                let pragma_once = text.lines().any(is_pragma_once);
                if pragma_once && once.contains(name) {
                    out.push('\n');
                    continue;
                }
                if pragma_once {
                    once.push(name.clone());
                }
                // The directive itself goes: in the one file it would be the main file's.
                let body: Vec<&str> = text.lines().filter(|l| !is_pragma_once(l)).collect();
                out.push_str(&with_headers(&body.join("\n"), headers, once, depth + 1)?);
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Some(out)
}

/// Whether `line` is `#pragma once`.
fn is_pragma_once(line: &str) -> bool {
    directive(line).is_some_and(|d| d.split_whitespace().eq(["pragma", "once"]))
}

/// The name a line's `#include` directive names, if it is one.
fn included(line: &str) -> Option<&str> {
    let rest = directive(line)?.strip_prefix("include")?.trim_start();
    let (open, close) = match rest.chars().next()? {
        '"' => ('"', '"'),
        '<' => ('<', '>'),
        _ => return None,
    };
    let inner = rest.strip_prefix(open)?;
    Some(&inner[..inner.find(close)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(source: &str, options: &str, headers: &[(&str, &str)]) -> CompiledUnit {
        CompiledUnit {
            source: source.to_string(),
            options: options.to_string(),
            headers: headers
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        }
    }

    #[test]
    fn units_join_in_link_order_with_their_headers_in_place() {
        let h = [("h.h", "#ifndef H\n#define H\nfloat f(float);\n#endif")];
        let made = joined(&[
            unit(
                "#include \"h.h\"\nkernel void k(global float *x) { x[0] = f(x[0]); }",
                " -DA ",
                &h,
            ),
            unit(
                "#include \"h.h\"\nfloat f(float v) { return v + A; }",
                "-DA",
                &h,
            ),
        ])
        .unwrap();
        assert_eq!(made.options, "-DA");
        assert_eq!(
            made.source,
            "#ifndef H\n#define H\nfloat f(float);\n#endif\nkernel void k(global float *x) { x[0] = f(x[0]); }\n\n\
             #ifndef H\n#define H\nfloat f(float);\n#endif\nfloat f(float v) { return v + A; }\n"
        );
    }

    #[test]
    fn units_that_could_mean_otherwise_joined_are_not_joined() {
        let k = "kernel void k(global float *x) { x[0] = f(x[0]); }";
        let f = "float f(float v) { return v; }";
        assert_eq!(
            joined(&[unit(k, "-DA", &[]), unit(f, "-DB", &[])]),
            Err(OPTIONS_DIFFER)
        );
        let with_macro = "#define N 4\nfloat f(float v) { return v * N; }";
        assert_eq!(
            joined(&[unit(k, "", &[]), unit(with_macro, "", &[])]),
            Err(MACRO_CROSSES)
        );
        // One unit alone may define what it likes.
        assert!(joined(&[unit(with_macro, "", &[])]).is_ok());
        let two = [
            unit(k, "", &[("h.h", "int a;")]),
            unit(f, "", &[("h.h", "int b;")]),
        ];
        assert_eq!(joined(&two), Err(HEADERS_DIFFER));
        assert_eq!(joined(&[]), Err(UNSEEN_UNIT));
        // A `#pragma once` header two units include comes in once: they are one file now.
        let once = [("o.h", "#pragma once\nfloat f(float);")];
        let (ko, fo) = (
            format!("#include \"o.h\"\n{k}"),
            format!("#include \"o.h\"\n{f}"),
        );
        let made = joined(&[unit(&ko, "", &once), unit(&fo, "", &once)]).unwrap();
        assert_eq!(
            made.source.matches("float f(float);").count(),
            1,
            "{}",
            made.source
        );
    }

    #[test]
    fn includes_of_given_headers_are_replaced_by_their_text() {
        let headers = vec![
            ("a.h".to_string(), "#include \"b.h\"\nint a;".to_string()),
            ("b.h".to_string(), "#pragma once\nint b;".to_string()),
        ];
        let src = "#include \"a.h\"\n  #  include <b.h>\n#include \"other.h\"\nkernel void k() {}";
        let out = with_headers(src, &headers, &mut Vec::new(), 0).unwrap();
        // b.h once (its pragma), a.h's own line kept, the unknown include left alone.
        assert_eq!(
            out,
            "int b;\nint a;\n\n#include \"other.h\"\nkernel void k() {}\n"
        );
        assert_eq!(included(" # include \"x/y.h\" // c"), Some("x/y.h"));
        assert_eq!(included("#define X"), None);
        // A header that includes itself ends, refused.
        let looped = vec![("l.h".to_string(), "#include \"l.h\"".to_string())];
        assert_eq!(
            with_headers("#include \"l.h\"", &looped, &mut Vec::new(), 0),
            None
        );
    }

    #[test]
    fn a_unit_defines_macros_by_its_own_directives() {
        assert!(defines_macros("#define N 4\nkernel void k() {}"));
        assert!(defines_macros("  #  undef N\n"));
        assert!(!defines_macros(
            "#include \"coeffs.h\"\n// #define in a comment? no: a line\n"
        ));
        assert!(!defines_macros(
            "kernel void k(global int *a) { a[0] = 1; }"
        ));
    }
}
