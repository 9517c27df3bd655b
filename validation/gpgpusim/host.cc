// A general CUDA-runtime host for GPGPU-Sim: runs one kernel of a clang-generated PTX
// (OpenCL C compiled for nvptx64) with any signature given on the command line.
//
//   host KERNEL GRID BLOCK ARG...
//     GRID   work-groups per dimension:  X | XxY | XxYxZ
//     BLOCK  work-items per work-group:  X | XxY | XxYxZ
//     ARG    in the kernel's parameter order, one of
//       buf:TYPE:LEN:FILL   a __global buffer of LEN elements (a device pointer)
//       scalar:TYPE:VALUE   a by-value parameter
//       local:BYTES         a __local pointer parameter (see below)
//     TYPE   f32 | f64 | i32 | u32
//     FILL   zero | iota | const:V | rand:SEED | randint:SEED:M | csr:SEED:DEG
//       iota           element i is i
//       const:V        every element is V
//       rand:SEED      floats uniform in [0, 1); integers uniform in [0, 2^31)
//       randint:SEED:M uniform integers in [0, M) (converted to the element type)
//       csr:SEED:DEG   CSR row offsets of a random graph with LEN-1 rows: offset 0 is 0,
//                      row i has a uniform 0..2*DEG entries (mean DEG)
//     All random fills use splitmix64 from SEED; srcsim-validate (tests/src/bin) fills its
//     buffers with the same generator, so both sides run on the same data.
//
// The kernel is registered by name with no fat binary; GPGPU-Sim gets the PTX from the
// stand-in cuobjdump ($GPGPUSIM_PTX, see shared/reference/gpgpusim). GPGPU-Sim prints
// gpu_sim_cycle for the launch; this host then prints one line
//   CHECKSUM b0=SUM b1=SUM ...
// with the sum of each buffer's elements after the run (as double, %.9e), which
// srcsim-validate prints too for the same launch run on PoCL.
//
// __local pointer parameters: clang's NVPTX back end passes an OpenCL `__local T*`
// parameter as a .u64 parameter that the kernel uses directly as a .shared address
// (ld.shared/st.shared [param + offset]). GPGPU-Sim addresses each CTA's shared memory
// from 0, its static __shared__/__local variables first (ptxas' smem, which
// cudaFuncGetAttributes reports), so each local:BYTES argument gets the next 16-byte
// aligned offset after the static ones, and the total is passed as the launch's dynamic
// shared memory. (This build of GPGPU-Sim computes occupancy from the static size only.)
#include <cuda_runtime_api.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **h);
void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid,
                            uint3 *bid, dim3 *bDim, dim3 *gDim);
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shmem, void *stream);
}

static char host_stub;  // its address is the kernel's host-side handle

[[noreturn]] static void die(const std::string &msg) {
  fprintf(stderr, "host: %s\n", msg.c_str());
  exit(2);
}

#define CK(x)                                                           \
  do {                                                                  \
    cudaError_t e = (x);                                                \
    if (e != cudaSuccess) die(std::string(#x) + " failed: " + std::to_string((int)e)); \
  } while (0)

struct SplitMix64 {
  uint64_t s;
  explicit SplitMix64(uint64_t seed) : s(seed) {}
  uint64_t next() {
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

enum class Ty { F32, F64, I32, U32 };

static Ty parse_type(const std::string &s) {
  if (s == "f32") return Ty::F32;
  if (s == "f64") return Ty::F64;
  if (s == "i32") return Ty::I32;
  if (s == "u32") return Ty::U32;
  die("unknown type " + s);
}

static size_t type_size(Ty t) { return t == Ty::F64 ? 8 : 4; }

static std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

static double num(const std::string &s) {
  char *end = nullptr;
  double v = strtod(s.c_str(), &end);
  if (s.empty() || *end) die("not a number: " + s);
  return v;
}

static uint64_t unum(const std::string &s) {
  char *end = nullptr;
  unsigned long long v = strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end) die("not a whole number: " + s);
  return v;
}

// Stores v at element i of a buffer of type t (integers from a double, as srcsim-validate
// converts them: truncation toward zero; u32 through a 64-bit integer).
static void store(std::vector<uint8_t> &b, Ty t, size_t i, double v) {
  uint8_t *p = b.data() + i * type_size(t);
  switch (t) {
    case Ty::F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case Ty::F64: { memcpy(p, &v, 8); break; }
    case Ty::I32: { int32_t x = (int32_t)(int64_t)v; memcpy(p, &x, 4); break; }
    case Ty::U32: { uint32_t x = (uint32_t)(int64_t)v; memcpy(p, &x, 4); break; }
  }
}

static double load(const std::vector<uint8_t> &b, Ty t, size_t i) {
  const uint8_t *p = b.data() + i * type_size(t);
  switch (t) {
    case Ty::F32: { float x; memcpy(&x, p, 4); return x; }
    case Ty::F64: { double x; memcpy(&x, p, 8); return x; }
    case Ty::I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case Ty::U32: { uint32_t x; memcpy(&x, p, 4); return x; }
  }
  return 0;
}

static std::vector<uint8_t> fill(Ty t, size_t len, const std::vector<std::string> &f) {
  std::vector<uint8_t> b(len * type_size(t), 0);
  const std::string &kind = f.at(0);
  auto want = [&](size_t n) {
    if (f.size() != n + 1) die("fill " + kind + " takes " + std::to_string(n) + " parameters");
  };
  bool is_float = t == Ty::F32 || t == Ty::F64;
  if (kind == "zero") {
    want(0);
  } else if (kind == "iota") {
    want(0);
    for (size_t i = 0; i < len; i++) store(b, t, i, (double)i);
  } else if (kind == "const") {
    want(1);
    double v = num(f[1]);
    for (size_t i = 0; i < len; i++) store(b, t, i, v);
  } else if (kind == "rand") {
    want(1);
    SplitMix64 r(unum(f[1]));
    for (size_t i = 0; i < len; i++) {
      uint64_t x = r.next();
      double v;
      if (t == Ty::F32) v = (double)(x >> 40) / 16777216.0;
      else if (t == Ty::F64) v = (double)(x >> 11) / 9007199254740992.0;
      else v = (double)(x >> 33);
      store(b, t, i, v);
    }
  } else if (kind == "randint") {
    want(2);
    SplitMix64 r(unum(f[1]));
    uint64_t m = unum(f[2]);
    if (m == 0) die("randint: M must be positive");
    for (size_t i = 0; i < len; i++) store(b, t, i, (double)(r.next() % m));
  } else if (kind == "csr") {
    want(2);
    if (is_float) die("csr: needs an integer type");
    SplitMix64 r(unum(f[1]));
    uint64_t deg = unum(f[2]), off = 0;
    for (size_t i = 0; i < len; i++) {
      store(b, t, i, (double)off);
      off += r.next() % (2 * deg + 1);
    }
  } else {
    die("unknown fill " + kind);
  }
  return b;
}

static dim3 parse_dims(const std::string &s) {
  std::vector<std::string> p = split(s, 'x');
  if (p.empty() || p.size() > 3) die("bad dimensions " + s);
  unsigned d[3] = {1, 1, 1};
  for (size_t i = 0; i < p.size(); i++) d[i] = (unsigned)unum(p[i]);
  return dim3(d[0], d[1], d[2]);
}

struct Arg {
  enum { Buffer, Scalar, Local } kind;
  Ty ty = Ty::F32;
  std::vector<uint8_t> host;  // buffer contents, or the scalar's bytes
  void *dev = nullptr;
  uint64_t local_bytes = 0, local_addr = 0;
};

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr,
            "usage: %s KERNEL GRID BLOCK [buf:TYPE:LEN:FILL | scalar:TYPE:VALUE | "
            "local:BYTES]...\n",
            argv[0]);
    return 2;
  }
  const char *kname = argv[1];
  dim3 grid = parse_dims(argv[2]), block = parse_dims(argv[3]);
  static int dummy_fatbin[4];
  void **h = __cudaRegisterFatBinary(dummy_fatbin);
  __cudaRegisterFunction(h, &host_stub, (char *)kname, kname, -1, 0, 0, 0, 0);
  __cudaRegisterFatBinaryEnd(h);

  std::vector<Arg> args;
  for (int i = 4; i < argc; i++) {
    std::vector<std::string> p = split(argv[i], ':');
    Arg a;
    if (p[0] == "buf" && p.size() >= 4) {
      a.kind = Arg::Buffer;
      a.ty = parse_type(p[1]);
      size_t len = unum(p[2]);
      if (len == 0) die("empty buffer");
      a.host = fill(a.ty, len, std::vector<std::string>(p.begin() + 3, p.end()));
    } else if (p[0] == "scalar" && p.size() == 3) {
      a.kind = Arg::Scalar;
      a.ty = parse_type(p[1]);
      a.host.resize(type_size(a.ty));
      store(a.host, a.ty, 0, num(p[2]));
    } else if (p[0] == "local" && p.size() == 2) {
      a.kind = Arg::Local;
      a.local_bytes = unum(p[1]);
    } else {
      die(std::string("bad argument ") + argv[i]);
    }
    args.push_back(std::move(a));
  }

  // __local arguments: offsets in the CTA's shared memory, after the static variables.
  cudaFuncAttributes attr;
  memset(&attr, 0, sizeof attr);
  CK(cudaFuncGetAttributes(&attr, (const void *)&host_stub));
  uint64_t shared_next = (attr.sharedSizeBytes + 15) & ~(uint64_t)15, dynamic = 0;
  for (Arg &a : args) {
    if (a.kind != Arg::Local) continue;
    a.local_addr = shared_next;
    uint64_t sz = (a.local_bytes + 15) & ~(uint64_t)15;
    shared_next += sz;
    dynamic += sz;
  }

  std::vector<void *> params;
  for (Arg &a : args) {
    switch (a.kind) {
      case Arg::Buffer:
        CK(cudaMalloc(&a.dev, a.host.size()));
        CK(cudaMemcpy(a.dev, a.host.data(), a.host.size(), cudaMemcpyHostToDevice));
        params.push_back(&a.dev);
        break;
      case Arg::Scalar:
        params.push_back(a.host.data());
        break;
      case Arg::Local:
        params.push_back(&a.local_addr);
        break;
    }
  }
  fprintf(stderr, "host: %s grid %ux%ux%u block %ux%ux%u, %zu args, static shared %zu, dynamic %" PRIu64 "\n",
          kname, grid.x, grid.y, grid.z, block.x, block.y, block.z, args.size(),
          (size_t)attr.sharedSizeBytes, dynamic);
  __cudaPushCallConfiguration(grid, block, dynamic, 0);
  CK(cudaLaunchKernel((const void *)&host_stub, grid, block, params.data(), dynamic, 0));
  CK(cudaDeviceSynchronize());

  printf("CHECKSUM");
  int bi = 0;
  for (Arg &a : args) {
    if (a.kind != Arg::Buffer) continue;
    CK(cudaMemcpy(a.host.data(), a.dev, a.host.size(), cudaMemcpyDeviceToHost));
    double sum = 0;
    size_t n = a.host.size() / type_size(a.ty);
    for (size_t i = 0; i < n; i++) sum += load(a.host, a.ty, i);
    printf(" b%d=%.9e", bi++, sum);
  }
  printf("\n");
  return 0;
}
