//! The slot of every function the shim reaches or replaces as an OpenCL layer
//! (`srcsim::cl::dispatch_slots`) is its field's position in the ICD dispatch table of the
//! installed CL/cl_icd.h, as the C compiler lays the struct out. A wrong slot makes the
//! layer call one function in place of another.

use std::process::Command;

#[test]
fn dispatch_slots_are_the_fields_of_cl_icd_h() {
    let dir = std::env::temp_dir().join(format!("srcsim-dispatch-slots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = String::from(
        "#define CL_TARGET_OPENCL_VERSION 300\n#include <CL/cl_icd.h>\n#include <stddef.h>\n\
         #include <stdio.h>\nint main(void)\n{\n",
    );
    for (name, _) in srcsim::cl::dispatch_slots() {
        c += &format!(
            "    printf(\"{name} %zu\\n\", offsetof(struct _cl_icd_dispatch, {name}) / sizeof(void *));\n"
        );
    }
    c += "    return 0;\n}\n";
    let source = dir.join("slots.c");
    let exe = dir.join("slots");
    std::fs::write(&source, c).unwrap();
    let cc = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&source)
        .output()
        .expect("running cc");
    assert!(
        cc.status.success(),
        "compiling against CL/cl_icd.h (opencl-headers):\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    let header: Vec<(String, usize)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (name, slot) = l.split_once(' ').unwrap();
            (name.to_string(), slot.parse().unwrap())
        })
        .collect();
    let ours: Vec<(String, usize)> = srcsim::cl::dispatch_slots()
        .map(|(name, slot)| (name.to_string(), slot))
        .collect();
    assert_eq!(ours, header);
    // The SVM calls are there, next to each other.
    let slot = |n: &str| header.iter().find(|(name, _)| name == n).map(|e| e.1);
    assert_eq!(slot("clSetKernelArgSVMPointer"), Some(134));
    assert_eq!(slot("clSetKernelExecInfo"), Some(135));
    let _ = std::fs::remove_dir_all(&dir);
}
