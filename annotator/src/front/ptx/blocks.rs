//! A function body's statements split into basic blocks, each linked to its successors.

use std::collections::{HashMap, HashSet};

use super::error::ParseError;
use super::*;

/// A statement of a function body, before it is split into blocks.
pub(super) enum Stmt {
    Label(String, u32),
    Instr(Instruction),
    BranchTable(String, Vec<String>),
}

/// Splits a body into basic blocks: a block starts at a label that some branch targets
/// and after every branch, return or exit; then links each block to its successors.
pub(super) fn build_blocks(stmts: Vec<Stmt>, fn_line: u32) -> Result<Vec<Block>, ParseError> {
    let tables: HashMap<&str, &[String]> = stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::BranchTable(l, t) => Some((l.as_str(), t.as_slice())),
            _ => None,
        })
        .collect();
    let mut targets: HashSet<String> = HashSet::new();
    for s in &stmts {
        if let Stmt::Instr(i) = s {
            match i.base() {
                "bra" => targets.extend(
                    i.operands
                        .iter()
                        .filter_map(|o| o.symbol().map(String::from)),
                ),
                "brx" => {
                    for o in &i.operands {
                        if let Some(t) = o.symbol().and_then(|s| tables.get(s)) {
                            targets.extend(t.iter().cloned());
                        }
                    }
                }
                _ => {}
            }
        }
    }

    let mut blocks: Vec<Block> = Vec::new();
    let mut open = false;
    let mut by_label: HashMap<String, usize> = HashMap::new();
    let mut seen_labels: HashSet<&str> = HashSet::new();
    for s in &stmts {
        match s {
            Stmt::Label(l, line) if !seen_labels.insert(l.as_str()) => {
                return Err(ParseError {
                    line: *line,
                    message: format!("label `{l}` is defined twice"),
                })
            }
            Stmt::Label(l, _) if targets.contains(l) => {
                let reuse = open
                    && blocks
                        .last()
                        .is_some_and(|b| b.instrs.is_empty() && b.label.is_none());
                if reuse {
                    blocks.last_mut().expect("open block").label = Some(l.clone());
                } else {
                    blocks.push(Block {
                        label: Some(l.clone()),
                        ..Block::default()
                    });
                }
                by_label.insert(l.clone(), blocks.len() - 1);
                open = true;
            }
            Stmt::Label(..) | Stmt::BranchTable(..) => {}
            Stmt::Instr(i) => {
                if !open {
                    blocks.push(Block::default());
                    open = true;
                }
                blocks
                    .last_mut()
                    .expect("open block")
                    .instrs
                    .push(i.clone());
                if i.ends_block() {
                    open = false;
                }
            }
        }
    }

    let n = blocks.len();
    let mut successors = Vec::with_capacity(n);
    for (b, block) in blocks.iter().enumerate() {
        let mut succ = Vec::new();
        let fallthrough = (b + 1 < n).then_some(b + 1);
        match block.instrs.last() {
            Some(i) if i.ends_block() => {
                let named: Vec<String> = match i.base() {
                    "bra" => i
                        .operands
                        .iter()
                        .filter_map(|o| o.symbol().map(String::from))
                        .collect(),
                    "brx" => i
                        .operands
                        .iter()
                        .filter_map(|o| o.symbol().and_then(|s| tables.get(s)))
                        .flat_map(|t| t.iter().cloned())
                        .collect(),
                    _ => Vec::new(),
                };
                if matches!(i.base(), "bra" | "brx") && named.is_empty() {
                    return Err(ParseError {
                        line: i.ptx_line,
                        message: format!("`{}` without a known target", i.opcode),
                    });
                }
                for t in named {
                    match by_label.get(&t) {
                        Some(&idx) => succ.push(idx),
                        None => {
                            return Err(ParseError {
                                line: i.ptx_line,
                                message: format!(
                                    "branch to `{t}`, which is not a label of the function at PTX line {fn_line}"
                                ),
                            })
                        }
                    }
                }
                if i.guard.is_some() {
                    succ.extend(fallthrough);
                }
            }
            _ => succ.extend(fallthrough),
        }
        let mut seen = HashSet::new();
        succ.retain(|s| seen.insert(*s));
        successors.push(succ);
    }
    for (block, succ) in blocks.iter_mut().zip(successors) {
        block.successors = succ;
    }
    Ok(blocks)
}
