//! A launch's arguments built from the suite: scalars and buffers with their fills (the
//! same random sequence as the GPGPU-Sim host), for PoCL and for the host's command line.

use anyhow::{bail, Context, Result};
use kernel_runner::KernelArg;

use crate::suite::{ArgSpec, ElemType, Fill, FillKind, Launch, SuiteKernel, Value};

/// splitmix64, the generator of the random fills (the same in host.cc).
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

pub(crate) fn scalar_bytes(elem: ElemType, v: f64) -> Vec<u8> {
    let mut out = Vec::with_capacity(elem.size());
    push_scalar(&mut out, elem, v);
    out
}

/// Appends `v` as `elem` to `out` (a buffer's bytes, without a vector per element).
fn push_scalar(out: &mut Vec<u8>, elem: ElemType, v: f64) {
    match elem {
        ElemType::F32 => out.extend_from_slice(&(v as f32).to_ne_bytes()),
        ElemType::F64 => out.extend_from_slice(&v.to_ne_bytes()),
        ElemType::I32 => out.extend_from_slice(&(v as i32).to_ne_bytes()),
        ElemType::U32 => out.extend_from_slice(&(v as u32).to_ne_bytes()),
    }
}

/// A fill's parameters, resolved and checked to be whole numbers where they must be.
pub(crate) fn fill_params(fill: &Fill, launch: &Launch) -> Result<Vec<f64>> {
    let params = fill
        .params
        .iter()
        .map(|p| launch.resolve(p))
        .collect::<Result<Vec<f64>>>()?;
    let whole = match fill.kind {
        FillKind::Const => &params[..0],
        _ => &params[..],
    };
    if whole.iter().any(|p| *p < 0.0 || p.fract() != 0.0) {
        bail!("fill parameters {params:?} must be whole numbers");
    }
    Ok(params)
}

/// The fill as host.cc reads it, its parameters resolved (`randint:7:1024`).
pub(crate) fn fill_label(fill: &Fill, launch: &Launch) -> Result<String> {
    let name = match fill.kind {
        FillKind::Zero => "zero",
        FillKind::Iota => "iota",
        FillKind::Const => "const",
        FillKind::Rand => "rand",
        FillKind::RandInt => "randint",
        FillKind::Csr => "csr",
    };
    let mut out = name.to_string();
    for p in fill_params(fill, launch)? {
        out.push(':');
        out.push_str(&p.to_string());
    }
    Ok(out)
}

pub(crate) fn buffer_bytes(
    elem: ElemType,
    len: usize,
    fill: &Fill,
    launch: &Launch,
) -> Result<Vec<u8>> {
    let params = fill_params(fill, launch)?;
    let values: Vec<f64> = match fill.kind {
        FillKind::Zero => vec![0.0; len],
        FillKind::Iota => (0..len).map(|i| i as f64).collect(),
        FillKind::Const => vec![params[0]; len],
        FillKind::Rand => {
            let mut r = SplitMix64(params[0] as u64);
            (0..len)
                .map(|_| {
                    let x = r.next();
                    match elem {
                        ElemType::F32 => (x >> 40) as f64 / 16_777_216.0,
                        ElemType::F64 => (x >> 11) as f64 / 9_007_199_254_740_992.0,
                        _ => (x >> 33) as f64,
                    }
                })
                .collect()
        }
        FillKind::RandInt => {
            let mut r = SplitMix64(params[0] as u64);
            let m = params[1] as u64;
            if m == 0 {
                bail!("randint: M must be positive");
            }
            (0..len).map(|_| (r.next() % m) as f64).collect()
        }
        FillKind::Csr => {
            if elem.is_float() {
                bail!("csr: needs an integer type");
            }
            let mut r = SplitMix64(params[0] as u64);
            let deg = params[1] as u64;
            let mut off = 0u64;
            (0..len)
                .map(|_| {
                    let o = off;
                    off += r.next() % (2 * deg + 1);
                    o as f64
                })
                .collect()
        }
    };
    let mut bytes = Vec::with_capacity(len * elem.size());
    for v in values {
        push_scalar(&mut bytes, elem, v);
    }
    Ok(bytes)
}

/// The sum of a buffer's elements, as host.cc prints it.
pub(crate) fn checksum(elem: ElemType, bytes: &[u8]) -> f64 {
    bytes
        .chunks_exact(elem.size())
        .map(|c| match elem {
            ElemType::F32 => f32::from_ne_bytes(c.try_into().unwrap()) as f64,
            ElemType::F64 => f64::from_ne_bytes(c.try_into().unwrap()),
            ElemType::I32 => i32::from_ne_bytes(c.try_into().unwrap()) as f64,
            ElemType::U32 => u32::from_ne_bytes(c.try_into().unwrap()) as f64,
        })
        .sum()
}

/// A buffer or local length: a positive whole number.
pub(crate) fn length(launch: &Launch, len: &Value) -> Result<usize> {
    let len = launch.resolve(len)?;
    if len < 1.0 || len.fract() != 0.0 {
        bail!("buffer length {len} is not a positive whole number");
    }
    Ok(len as usize)
}

pub(crate) fn args_of(kernel: &SuiteKernel, launch: &Launch) -> Result<Vec<KernelArg>> {
    kernel
        .args
        .iter()
        .map(|spec| {
            let arg = match spec {
                ArgSpec::Buffer { elem, len, fill } => {
                    KernelArg::Buffer(buffer_bytes(*elem, length(launch, len)?, fill, launch)?)
                }
                ArgSpec::Scalar { elem, value } => {
                    KernelArg::Scalar(scalar_bytes(*elem, launch.resolve(value)?))
                }
                ArgSpec::Local { elem, len } => {
                    KernelArg::Local(length(launch, len)? * elem.size())
                }
            };
            Ok::<_, anyhow::Error>(arg)
        })
        .enumerate()
        .map(|(i, a)| a.with_context(|| format!("argument {i}")))
        .collect()
}

/// The arguments of a launch as host.cc takes them.
pub(crate) fn host_args_of(kernel: &SuiteKernel, launch: &Launch) -> Result<Vec<String>> {
    kernel
        .args
        .iter()
        .map(|spec| {
            let arg = match spec {
                ArgSpec::Buffer { elem, len, fill } => format!(
                    "buf:{}:{}:{}",
                    elem.name(),
                    length(launch, len)?,
                    fill_label(fill, launch)?
                ),
                ArgSpec::Scalar { elem, value } => {
                    let v = launch.resolve(value)?;
                    // The value the kernel gets, as scalar_bytes converts it.
                    let v = match elem {
                        ElemType::F32 => (v as f32) as f64,
                        ElemType::F64 => v,
                        ElemType::I32 => (v as i32) as f64,
                        ElemType::U32 => (v as u32) as f64,
                    };
                    format!("scalar:{}:{v:?}", elem.name())
                }
                ArgSpec::Local { elem, len } => {
                    format!("local:{}", length(launch, len)? * elem.size())
                }
            };
            Ok::<_, anyhow::Error>(arg)
        })
        .enumerate()
        .map(|(i, a)| a.with_context(|| format!("argument {i}")))
        .collect()
}
