//! Work-groups narrower than a warp. The GPU forms a work-group's warps from its
//! work-items in linear order (x fastest), so a warp of a group 16 wide spans two of its
//! rows, of a group 8 wide four: `a[y * n + x]` then touches a line per row where a warp
//! of one row touches one. The annotator prices every access for each width class
//! ([`ROW_LANES`]) where the class changes what it costs, and the annotated kernel
//! charges the class its launch has ([`WIDTH_CLASS_OPENCL`]); the host's evaluation of
//! paths picks it with [`width_class`].
//!
//! ```
//! use pipeline_model::rows::{width_class, Amount};
//!
//! assert_eq!(width_class([256, 1, 1]), 0);
//! assert_eq!(width_class([16, 16, 1]), 1);
//! assert_eq!(width_class([8, 8, 1]), 2);
//! assert_eq!(width_class([24, 4, 1]), 1); // rows of 24: taken as 16 wide
//! assert_eq!(width_class([16, 1, 1]), 0); // one row: each warp is one row
//! let lines = Amount::ByWidth([1, 2, 4, 8, 16, 32]);
//! assert_eq!((lines.at(0), lines.at(2)), (1, 4));
//! assert_eq!(Amount::Const(3).at(5), 3);
//! ```

use serde::{Deserialize, Serialize};

/// Width classes: a warp whose work-group is one row or 32 wide or more, then groups 16,
/// 8, 4, 2 and 1 wide.
pub const CLASSES: usize = 6;

/// The work-items a warp takes from each row, per width class (the class's width); a
/// warp spans `32 / ROW_LANES[c]` rows.
pub const ROW_LANES: [u32; CLASSES] = [32, 16, 8, 4, 2, 1];

/// The width class of a launch whose work-groups are `local` work-items: 0 where a warp
/// is one row (the group is at least 32 wide, or a single row), else the class of the
/// widest of [`ROW_LANES`] the group's width reaches.
pub fn width_class(local: [u64; 3]) -> usize {
    let width = local[0].max(1);
    if width >= u64::from(ROW_LANES[0]) || local[1].max(1) * local[2].max(1) == 1 {
        return 0;
    }
    ROW_LANES
        .iter()
        .position(|&lanes| width >= u64::from(lanes))
        .unwrap_or(CLASSES - 1)
}

/// [`width_class`] as the annotated kernel computes it on the device, an OpenCL C
/// expression of type `uint`.
pub const WIDTH_CLASS_OPENCL: &str = "(get_local_size(0) >= 32 || get_local_size(1) * get_local_size(2) == 1 ? 0u : get_local_size(0) >= 16 ? 1u : get_local_size(0) >= 8 ? 2u : get_local_size(0) >= 4 ? 3u : get_local_size(0) >= 2 ? 4u : 5u)";

/// What a path adds to a counter: the same in every width class, or one amount per
/// class (in JSON, a number or an array of [`CLASSES`] numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// The same whatever the work-groups' width.
    Const(u64),
    /// Per width class.
    ByWidth([u64; CLASSES]),
}

impl Amount {
    /// The amount in width class `class`.
    pub fn at(&self, class: usize) -> u64 {
        match self {
            Amount::Const(v) => *v,
            Amount::ByWidth(v) => v[class.min(CLASSES - 1)],
        }
    }

    /// Whether it adds nothing in any class.
    pub fn is_zero(&self) -> bool {
        match self {
            Amount::Const(v) => *v == 0,
            Amount::ByWidth(v) => v.iter().all(|&x| x == 0),
        }
    }

    /// `per_class` as an amount: [`Amount::Const`] where every class is alike.
    pub fn of(per_class: [u64; CLASSES]) -> Amount {
        if per_class.iter().all(|&v| v == per_class[0]) {
            Amount::Const(per_class[0])
        } else {
            Amount::ByWidth(per_class)
        }
    }
}

impl Default for Amount {
    fn default() -> Self {
        Amount::Const(0)
    }
}
