//! The validation suite's manifest (`validation/suite.toml`): its kernels, their arguments
//! and fills, and the sweep of launches with their sizes and variables.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Result};
use kernel_runner::NdRange;
use serde::Deserialize;

/// The suite manifest.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Suite {
    pub(crate) kernel: Vec<SuiteKernel>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SuiteKernel {
    pub(crate) name: String,
    /// Names the kernel's cases (`ID#i`) in place of `name`, where two entries run kernels
    /// of the same name (from different files).
    #[serde(default)]
    pub(crate) id: Option<String>,
    /// Relative to the manifest.
    pub(crate) file: PathBuf,
    pub(crate) class: KernelClass,
    pub(crate) args: Vec<ArgSpec>,
    pub(crate) sweep: Vec<Launch>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum KernelClass {
    Compute,
    Memory,
}

impl KernelClass {
    pub(crate) fn name(self) -> &'static str {
        match self {
            KernelClass::Compute => "compute",
            KernelClass::Memory => "memory",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ArgSpec {
    Buffer {
        #[serde(rename = "type")]
        elem: ElemType,
        len: Value,
        fill: Fill,
    },
    Scalar {
        #[serde(rename = "type")]
        elem: ElemType,
        value: Value,
    },
    /// A `__local` pointer parameter: a local buffer of `len` elements.
    Local {
        #[serde(rename = "type")]
        elem: ElemType,
        len: Value,
    },
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ElemType {
    F32,
    F64,
    I32,
    U32,
}

impl ElemType {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I32 => "i32",
            ElemType::U32 => "u32",
        }
    }

    pub(crate) fn size(self) -> usize {
        match self {
            ElemType::F64 => 8,
            _ => 4,
        }
    }

    pub(crate) fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }
}

/// How a buffer is filled: `zero`, `iota` (element i is i), `const:V`, `rand:SEED`
/// (floats uniform in [0, 1), integers in [0, 2^31)), `randint:SEED:M` (integers in
/// [0, M)) or `csr:SEED:DEG` (the row offsets of a random CSR graph of LEN-1 rows, each
/// with 0..2*DEG entries). Parameters may name launch variables. The random fills use
/// splitmix64, as the GPGPU-Sim host (validation/gpgpusim/host.cc) does.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct Fill {
    pub(crate) kind: FillKind,
    pub(crate) params: Vec<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FillKind {
    Zero,
    Iota,
    Const,
    Rand,
    RandInt,
    Csr,
}

impl TryFrom<String> for Fill {
    type Error = String;

    fn try_from(text: String) -> std::result::Result<Self, String> {
        let mut parts = text.split(':');
        let (kind, arity) = match parts.next().unwrap_or_default() {
            "zero" => (FillKind::Zero, 0),
            "iota" => (FillKind::Iota, 0),
            "const" => (FillKind::Const, 1),
            "rand" => (FillKind::Rand, 1),
            "randint" => (FillKind::RandInt, 2),
            "csr" => (FillKind::Csr, 2),
            other => {
                return Err(format!(
                    "unknown fill `{other}` (zero, iota, const:V, rand:SEED, randint:SEED:M, csr:SEED:DEG)"
                ))
            }
        };
        let params: Vec<Value> = parts
            .map(|p| {
                if let Ok(i) = p.parse::<i64>() {
                    Value::Int(i)
                } else if let Ok(f) = p.parse::<f64>() {
                    Value::Float(f)
                } else {
                    Value::Var(p.to_string())
                }
            })
            .collect();
        if params.len() != arity {
            return Err(format!("fill `{text}` needs {arity} parameters"));
        }
        Ok(Fill { kind, params })
    }
}

/// A number, or the name of a launch variable (`global` or one of `vars`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Value {
    Int(i64),
    Float(f64),
    Var(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Launch {
    pub(crate) global: Dims,
    pub(crate) local: Dims,
    #[serde(default)]
    pub(crate) vars: BTreeMap<String, i64>,
}

/// A size: one number (1D) or an array of 1 to 3 (`[x, y]`, `[x, y, z]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum Dims {
    One(u64),
    Many(Vec<u64>),
}

impl Dims {
    pub(crate) fn list(&self) -> Vec<u64> {
        match self {
            Dims::One(n) => vec![*n],
            Dims::Many(v) => v.clone(),
        }
    }

    /// The three dimensions, 1 past the given ones.
    pub(crate) fn xyz(&self) -> [u64; 3] {
        let mut out = [1; 3];
        for (o, d) in out.iter_mut().zip(self.list()) {
            *o = d;
        }
        out
    }

    /// `N` in 1D, `XxY` or `XxYxZ` otherwise.
    pub(crate) fn label(&self) -> String {
        self.list()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }
}

impl Launch {
    pub(crate) fn dims(&self) -> usize {
        self.global.list().len()
    }

    /// Work-items in the launch.
    pub(crate) fn work_items(&self) -> u64 {
        self.global.xyz().iter().product()
    }

    pub(crate) fn range(&self) -> NdRange {
        let g = self.global.xyz().map(|d| d as usize);
        let l = self.local.xyz().map(|d| d as usize);
        match self.dims() {
            1 => NdRange::d1(g[0]),
            2 => NdRange::d2([g[0], g[1]]),
            _ => NdRange::d3(g),
        }
        .with_local(l)
    }

    /// Work-groups per dimension, as GPGPU-Sim's grid (`XxYxZ`).
    pub(crate) fn grid_label(&self) -> String {
        let (g, l) = (self.global.xyz(), self.local.xyz());
        let grid: Vec<String> = (0..self.dims())
            .map(|d| (g[d] / l[d]).to_string())
            .collect();
        grid.join("x")
    }

    /// `name=value` pairs, `;`-separated: how predictions and measurements name a launch.
    pub(crate) fn vars_label(&self) -> String {
        self.vars
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    pub(crate) fn resolve(&self, value: &Value) -> Result<f64> {
        Ok(match value {
            Value::Int(i) => *i as f64,
            Value::Float(f) => *f,
            Value::Var(name) if name == "global" => self.work_items() as f64,
            Value::Var(name) => match self.vars.get(name) {
                Some(v) => *v as f64,
                None => bail!("no launch variable `{name}` (vars: {})", self.vars_label()),
            },
        })
    }
}

impl SuiteKernel {
    /// How its cases are named: `ID#i`.
    pub(crate) fn case_name(&self, i: usize) -> String {
        format!("{}#{i}", self.id.as_deref().unwrap_or(&self.name))
    }

    /// Its launches: all of the sweep, or its first (smallest) alone for `--quick`.
    pub(crate) fn launches(&self, quick: bool) -> &[Launch] {
        if quick {
            &self.sweep[..1]
        } else {
            &self.sweep
        }
    }
}
