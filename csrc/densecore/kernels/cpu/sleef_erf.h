// Whole-vector port of SLEEF 3.8's double erf (xerf_u1 of src/libm/sleefsimddp.c @ 5a1d179d, exported as
// Sleef_erfd4_u10 / erfd8_u10), which torch's Vectorized<double>::erf() calls (vec256_double.h /
// vec512_double.h) and so GeluKernel's float64 vector body. SLEEF's operations in its order on every lane at
// once, with its expk, POLY21/POLY10 in estrin.h's grouping and the ENABLE_FMA_DP double-double helpers of
// src/common/dd.h (shared with sleef_tanh.h), every FMA written out (our build has -ffp-contract=off).
// AVX2/AVX-512 builds only.
#pragma once

#include "densecore/kernels/cpu/sleef_tanh.h"

namespace dc::sleef {
inline namespace DC_CPU_CAPABILITY {

/// expk: exp of a double-double, rounded to one double (+0 below -1000). exp_reduce's s, renormalized; 1 + s
/// + s^2 p(s) with p of degree 9, in double-doubles; then scaled by 2^q.
inline DLanes expk_lanes(D2Lanes d) {
  LLanes q;
  const D2Lanes s = dd_normalize(exp_reduce(d, q));
  const DLanes s2 = s.hi * s.hi, s4 = s2 * s2;
  const DLanes pw[] = {s.hi, s2, s4, s4 * s4};
  const DLanes c[] = {splat_d(2.51069683420950419527139e-08), splat_d(2.76286166770270649116855e-07),
                      splat_d(2.75572496725023574143864e-06), splat_d(2.48014973989819794114153e-05),
                      splat_d(0.000198412698809069797676111), splat_d(0.0013888888939977128960529),
                      splat_d(0.00833333333332371417601081), splat_d(0.0416666666665409524128449),
                      splat_d(0.166666666666666740681535), splat_d(0.500000000000000999200722)};
  const DLanes u = estrin<10>(pw, c);
  D2Lanes t = dd_add(splat_d(1.0), s);
  t = dd_add(t, dd_mul(dd_squ(s), u));
  const DLanes e = ldexp2_lanes(t.hi + t.lo, q);
  return d.hi < splat_d(-1000.0) ? splat_d(0.0) : e;
}

/// xerf_u1's polynomial coefficients, highest degree first: the degree-20 double part on |x| <= 2.5 ...
inline constexpr double kErfNear[21] = {
    -0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11, +0.1186474230821585259e-10,
    -0.8499973178354613440e-10, +0.4507647462598841629e-9,  -0.1808044474288848915e-8,  +0.5435081826716212389e-8,
    -0.1143939895758628484e-7,  +0.1215442362680889243e-7,  +0.1669878756181250355e-7,  -0.9808074602255194288e-7,
    +0.1389000557865837204e-6,  +0.2945514529987331866e-6,  -0.1842918273003998283e-5,  +0.3417987836115362136e-5,
    +0.3860236356493129101e-5,  -0.3309403072749947546e-4,  +0.1060862922597579532e-3,  +0.2323253155213076174e-3,
    +0.1490149719145544729e-3};
/// ... and beyond 2.5 ...
inline constexpr double kErfFar[21] = {
    -0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14, +0.5029618322872872715e-13,
    -0.1025221466851463164e-11, +0.1573695559331945583e-10, -0.1884658558040203709e-9,  +0.1798167853032159309e-8,
    -0.1380745342355033142e-7,  +0.8525705726469103499e-7,  -0.4160448058101303405e-6,  +0.1517272660008588485e-5,
    -0.3341634127317201697e-5,  -0.2515023395879724513e-5,  +0.6539731269664907554e-4,  -0.3551065097428388658e-3,
    +0.1210736097958368864e-2,  -0.2605566912579998680e-2,  +0.1252823202436093193e-2,  +0.1820191395263313222e-1,
    -0.1021557155453465954e+0};
/// ... then the three lowest as double-doubles {hi, lo}, x^2, x^1, x^0 (near, far).
inline constexpr double kErfNearDD[3][2] = {{0.0092877958392275604405, 7.9287559463961107493e-19},
                                            {0.042275531758784692937, 1.3785226620501016138e-19},
                                            {0.07052369794346953491, 9.5846628070792092842e-19}};
inline constexpr double kErfFarDD[3][2] = {{-0.63691044383641748361, -2.4249477526539431839e-17},
                                           {-1.1282926061803961737, -6.2970338860410996505e-17},
                                           {-1.2261313785184804967e-05, -5.5329707514490107044e-22}};

/// x * y + z with x a double and y, z double-doubles: ddmla_vd2_vd_vd2_vd2.
inline D2Lanes dd_mla(DLanes x, D2Lanes y, D2Lanes z) { return dd_add(z, dd_mul(y, x)); }

/// xerf_u1 on every lane. With |x| = a and P(a) the polynomial above (its top 21 coefficients in doubles, the
/// last three in double-doubles): up to 2.5, erf = 1 - (1 + a P(a))^-16 (Abramowitz-Stegun's form; four
/// squarings and a reciprocal), beyond it 1 - exp(P(a)) (expk); both as 1 + ...-1 negated, in double-doubles.
/// Then a * 2/sqrt(pi) below 1e-8, 1 from 6 up and at +-inf, 0 at +-0, and x's sign xor'ed in (vmulsign).
/// SLEEF skips expk when every lane is at most 2.5 (a NaN lane is not), else selects per lane; the lanes of
/// either side get the same bits both ways, so that is only a shortcut here too.
inline DLanes erf_u10_lanes(DLanes x) {
  const LLanes sign = LLanes(x) & int64_t(0x8000000000000000ull);
  const DLanes a = DLanes(LLanes(x) & int64_t(0x7fffffffffffffffll));
  const DLanes a2 = a * a, a4 = a2 * a2, a8 = a4 * a4;
  const DLanes pw[] = {a, a2, a4, a8, a8 * a8};
  const auto near = a <= splat_d(2.5);
  DLanes c[21];
  for (int i = 0; i < 21; ++i) c[i] = near ? splat_d(kErfNear[i]) : splat_d(kErfFar[i]);
  D2Lanes cdd[3];
  for (int i = 0; i < 3; ++i) {
    cdd[i] = {near ? splat_d(kErfNearDD[i][0]) : splat_d(kErfFarDD[i][0]),
              near ? splat_d(kErfNearDD[i][1]) : splat_d(kErfFarDD[i][1])};
  }
  const DLanes t = estrin<21>(pw, c);
  // poly4dd: (t a + c2) a^2 + (c1 a + c0), t first widened to a double-double {t, 0}.
  D2Lanes p = dd_mla(a2, dd_mla(a, {t, splat_d(0.0)}, cdd[0]), dd_mla(a, cdd[1], cdd[2]));
  D2Lanes r = dd_add(splat_d(1.0), dd_mul(p, a));
  for (int i = 0; i < 4; ++i) r = dd_squ(r);
  r = dd_rec(r);
  if (!vec::all_lanes(LLanes(near))) {
    const DLanes e = expk_lanes(p);
    r = {near ? r.hi : e, near ? r.lo : splat_d(0.0)};
  }
  r = dd_add2(r, splat_d(-1.0));
  DLanes z = -(r.hi + r.lo);
  z = a < splat_d(1e-8) ? a * splat_d(1.12837916709551262756245475959) : z;
  z = a >= splat_d(6.0) ? splat_d(1.0) : z;
  z = a == splat_d(std::numeric_limits<double>::infinity()) ? splat_d(1.0) : z;
  z = x == splat_d(0.0) ? splat_d(0.0) : z;
  return DLanes(LLanes(z) ^ sign);
}

}  // namespace DC_CPU_CAPABILITY
}  // namespace dc::sleef
