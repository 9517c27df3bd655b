int twice(int x) {
  return 2 * x;
}

__kernel void tiny(__global int* out, int n) {
  int gid = get_global_id(0);
  if (gid >= n)
    return;
  int acc = 0;
  if (gid % 2 == 0) {
    acc += 1;
  } else {
    acc -= 1;
  }
  for (int i = 0; i < gid; i++) {
    acc += i;
  }
  acc = gid > 2 ? acc * 3 : 7;
  out[gid] = twice(acc)
      + 1;
}
