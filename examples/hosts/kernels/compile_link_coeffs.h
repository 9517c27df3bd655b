// compile_link's header, given to clCompileProgram by name: the helper both units share.
#ifndef COMPILE_LINK_COEFFS_H
#define COMPILE_LINK_COEFFS_H
#define OFFSET 1.0f
float advance(float v, float a);
#endif
