// Edge-preserving smoothing of an image by nonlinear diffusion: each iteration first gives
// every pixel a conductance from its four differences, scaled by its own brightness (dark
// pixels diffuse less) and clamped to [0, 1] on the values (a branch on the image), then
// writes every pixel moved by its neighbours' fluxes, clamped to the image's range, to
// the other of two images. Neighbours
// past the border are the pixel itself. The NDRange is the image rounded up to whole
// work-groups.
__kernel void conductance(__global const float *img, __global float *cond, const int width,
                          const int height, const float kappa2)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int i = y * width + x;
    float v = img[i];
    float north = img[y > 0 ? i - width : i] - v;
    float south = img[y < height - 1 ? i + width : i] - v;
    float west = img[x > 0 ? i - 1 : i] - v;
    float east = img[x < width - 1 ? i + 1 : i] - v;
    float grad2 = north * north + south * south + west * west + east * east;
    float c = 1.0f - grad2 / (kappa2 * (v * v + 1.0f));
    if (c < 0.0f)
        c = 0.0f;
    else if (c > 1.0f)
        c = 1.0f;
    cond[i] = c;
}

__kernel void diffuse(__global const float *img, __global const float *cond,
                      __global float *next, const int width, const int height,
                      const float lambda)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int i = y * width + x;
    float v = img[i], c = cond[i];
    int n = y > 0 ? i - width : i, s = y < height - 1 ? i + width : i;
    int w = x > 0 ? i - 1 : i, e = x < width - 1 ? i + 1 : i;
    float flux = c * (img[n] - v) + cond[s] * (img[s] - v) + c * (img[w] - v) +
                 cond[e] * (img[e] - v);
    float out = v + lambda * flux;
    if (out < 0.0f)
        out = 0.0f;
    if (out > 255.0f)
        out = 255.0f;
    next[i] = out;
}
