/* srcsim: included before every kernel compiled for NVPTX (clang -include).
 *
 * libclc 19 implements native_sin, native_exp, ... for nvptx as LLVM intrinsics
 * (llvm.sin.f32, llvm.exp.f32) that the NVPTX back end of LLVM 19 cannot select: clang
 * aborts with "Cannot select: fsin". These definitions use the PTX approximate
 * instructions that CUDA's __sinf / __expf compile to, which is what the native_
 * functions mean on an NVIDIA GPU. They are `nodebug`, so their instructions carry the
 * source line of the call. */
#if __OPENCL_C_VERSION__ >= 120
#define SRCSIM_FN __attribute__((overloadable, always_inline, nodebug)) static inline
#else
/* OpenCL C 1.0 and 1.1 have no `static`: a plain inline definition, always inlined (at
 * every optimisation level), so no other definition is ever needed. */
#define SRCSIM_FN __attribute__((overloadable, always_inline, nodebug)) inline
#endif

#define SRCSIM_LOG2E 1.4426950408889634f
#define SRCSIM_LN2 0.6931471805599453f
#define SRCSIM_LOG2_10 3.3219280948873622f
#define SRCSIM_LOG10_2 0.3010299956639812f

#define SRCSIM_UNARY(name, expr)                                                          \
  SRCSIM_FN float name(float x) { return expr; }                                          \
  SRCSIM_FN float2 name(float2 x) { return (float2)(name(x.s0), name(x.s1)); }            \
  SRCSIM_FN float3 name(float3 x) {                                                       \
    return (float3)(name(x.s0), name(x.s1), name(x.s2));                                  \
  }                                                                                       \
  SRCSIM_FN float4 name(float4 x) {                                                       \
    return (float4)(name(x.s0), name(x.s1), name(x.s2), name(x.s3));                      \
  }                                                                                       \
  SRCSIM_FN float8 name(float8 x) { return (float8)(name(x.lo), name(x.hi)); }            \
  SRCSIM_FN float16 name(float16 x) { return (float16)(name(x.lo), name(x.hi)); }

#define SRCSIM_BINARY(name, expr)                                                         \
  SRCSIM_FN float name(float x, float y) { return expr; }                                 \
  SRCSIM_FN float2 name(float2 x, float2 y) {                                             \
    return (float2)(name(x.s0, y.s0), name(x.s1, y.s1));                                  \
  }                                                                                       \
  SRCSIM_FN float3 name(float3 x, float3 y) {                                             \
    return (float3)(name(x.s0, y.s0), name(x.s1, y.s1), name(x.s2, y.s2));                \
  }                                                                                       \
  SRCSIM_FN float4 name(float4 x, float4 y) {                                             \
    return (float4)(name(x.s0, y.s0), name(x.s1, y.s1), name(x.s2, y.s2),                 \
                    name(x.s3, y.s3));                                                    \
  }                                                                                       \
  SRCSIM_FN float8 name(float8 x, float8 y) {                                             \
    return (float8)(name(x.lo, y.lo), name(x.hi, y.hi));                                  \
  }                                                                                       \
  SRCSIM_FN float16 name(float16 x, float16 y) {                                          \
    return (float16)(name(x.lo, y.lo), name(x.hi, y.hi));                                 \
  }

SRCSIM_UNARY(native_sin, __nvvm_sin_approx_f(x))
SRCSIM_UNARY(native_cos, __nvvm_cos_approx_f(x))
SRCSIM_UNARY(native_tan, __nvvm_div_approx_f(__nvvm_sin_approx_f(x), __nvvm_cos_approx_f(x)))
SRCSIM_UNARY(native_exp2, __nvvm_ex2_approx_f(x))
SRCSIM_UNARY(native_exp, __nvvm_ex2_approx_f(x * SRCSIM_LOG2E))
SRCSIM_UNARY(native_exp10, __nvvm_ex2_approx_f(x * SRCSIM_LOG2_10))
SRCSIM_UNARY(native_log2, __nvvm_lg2_approx_f(x))
SRCSIM_UNARY(native_log, __nvvm_lg2_approx_f(x) * SRCSIM_LN2)
SRCSIM_UNARY(native_log10, __nvvm_lg2_approx_f(x) * SRCSIM_LOG10_2)
SRCSIM_BINARY(native_powr, __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)))

/* libclc 19 for nvptx defines neither get_global_offset nor get_work_dim: calls to them
 * stay unresolved (and crash clang's debug-info emitter). A CUDA launch has no global
 * offset, and the launch's dimensions are unknown here: the best case assumes no offset,
 * and three dimensions so that no index computation is folded away. */
SRCSIM_FN size_t get_global_offset(uint dim) { return 0; }
SRCSIM_FN uint get_work_dim(void) { return 3; }

#undef SRCSIM_UNARY
#undef SRCSIM_BINARY
#undef SRCSIM_FN
