//! Unit tests of the fills' generator and parameters and of a launch's labels.

use kernel_runner::from_bytes;

use crate::args::{buffer_bytes, fill_label, SplitMix64};
use crate::suite::{Dims, ElemType, Fill, Launch};

#[test]
fn splitmix64_matches_the_reference_sequence() {
    // splitmix64 from seed 0 (Vigna's reference implementation); host.cc is the same code.
    let mut r = SplitMix64(0);
    assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
}

fn launch(vars: &[(&str, i64)]) -> Launch {
    Launch {
        global: Dims::Many(vec![8, 4]),
        local: Dims::Many(vec![4, 2]),
        vars: vars.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

#[test]
fn fills_resolve_launch_variables() {
    let l = launch(&[("n", 10)]);
    let fill = Fill::try_from("randint:7:n".to_string()).unwrap();
    assert_eq!(fill_label(&fill, &l).unwrap(), "randint:7:10");
    let bytes = buffer_bytes(ElemType::I32, 100, &fill, &l).unwrap();
    let v: Vec<i32> = from_bytes(&bytes).unwrap();
    assert!(v.iter().all(|x| (0..10).contains(x)));
    assert!(Fill::try_from("randint:7".to_string()).is_err());
    assert!(Fill::try_from("gauss:1".to_string()).is_err());
    assert_eq!(l.work_items(), 32);
    assert_eq!(l.grid_label(), "2x2");
    assert_eq!(l.global.label(), "8x4");
}

#[test]
fn csr_offsets_start_at_zero_and_never_fall() {
    let l = launch(&[]);
    let fill = Fill::try_from("csr:3:4".to_string()).unwrap();
    let v: Vec<i32> = from_bytes(&buffer_bytes(ElemType::I32, 1001, &fill, &l).unwrap()).unwrap();
    assert_eq!(v[0], 0);
    assert!(v.windows(2).all(|w| (0..=8).contains(&(w[1] - w[0]))));
    // Mean degree 4.
    assert!((3500..4500).contains(&v[1000]), "{}", v[1000]);
}
