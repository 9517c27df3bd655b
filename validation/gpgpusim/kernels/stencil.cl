// Stencils and convolutions; borders are clamped.

__kernel void stencil1d_3pt(__global const float *in, __global float *out, const int n) {
  int i = get_global_id(0);
  int l = max(i - 1, 0), r = min(i + 1, n - 1);
  out[i] = 0.25f * in[l] + 0.5f * in[i] + 0.25f * in[r];
}

// One Jacobi step of the 5-point Laplacian on a w x h grid (2D range w x h).
__kernel void stencil2d_5pt(__global const float *in, __global float *out, const int w,
                            const int h) {
  int x = get_global_id(0), y = get_global_id(1);
  int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
  int yu = max(y - 1, 0), yd = min(y + 1, h - 1);
  out[y * w + x] = 0.2f * (in[y * w + x] + in[y * w + xl] + in[y * w + xr] +
                           in[yu * w + x] + in[yd * w + x]);
}

// 1D convolution with a filter of taps coefficients (taps odd).
__kernel void conv1d(__global const float *in, __global const float *filt,
                     __global float *out, const int n, const int taps) {
  int i = get_global_id(0);
  int hw = taps / 2;
  float acc = 0.0f;
  for (int k = 0; k < taps; k++) {
    int j = clamp(i + k - hw, 0, n - 1);
    acc += filt[k] * in[j];
  }
  out[i] = acc;
}

// 2D convolution with a 3 x 3 filter on a w x h image (2D range w x h).
__kernel void conv2d_3x3(__global const float *in, __global const float *filt,
                         __global float *out, const int w, const int h) {
  int x = get_global_id(0), y = get_global_id(1);
  float acc = 0.0f;
  for (int dy = -1; dy <= 1; dy++) {
    int yy = clamp(y + dy, 0, h - 1);
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp(x + dx, 0, w - 1);
      acc += filt[(dy + 1) * 3 + (dx + 1)] * in[yy * w + xx];
    }
  }
  out[y * w + x] = acc;
}
