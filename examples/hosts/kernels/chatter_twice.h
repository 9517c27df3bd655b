// The prototype of chatter_twice.cl's helper, in a header the program includes.
float twice(float x);
