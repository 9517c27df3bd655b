//! Links libsrcsim.so so that its own references to the OpenCL entry points it defines
//! bind to its own definitions: as a layer (`OPENCL_LAYERS`) it puts their addresses into
//! the loader's dispatch table, and without this they would resolve to the loader's
//! functions of the same names, which dispatch straight back.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
}
