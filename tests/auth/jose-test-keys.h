/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Test keys made with OpenSSL 3 (openssl ecparam -genkey -noout, openssl
 * genrsa -traditional, openssl pkcs8 -topk8 -nocrypt), only for tests.
 * The expected public members and RFC 7638 thumbprints were computed
 * from OpenSSL's public key output with Python's hashlib: independent
 * of GnuTLS and of Plugboard. */

static const char TEST_EC_SEC1_PEM[] =
  "-----BEGIN EC PRIVATE KEY-----\n"
  "MHcCAQEEIKhFkz8BGLv9J/gNKZjetMduExlle26UHGn2igVmN9W2oAoGCCqGSM49\n"
  "AwEHoUQDQgAEks2UXiDS9BNMyiv6BDObit7fQ73Tl/4ZAlDMrYEvh1xIAwOJAH0f\n"
  "Uz+aqt/SAIl/vU267RbJXB4IFRqm7+qvYw==\n"
  "-----END EC PRIVATE KEY-----\n";

static const char TEST_EC_PKCS8_PEM[] =
  "-----BEGIN PRIVATE KEY-----\n"
  "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqEWTPwEYu/0n+A0p\n"
  "mN60x24TGWV7bpQcafaKBWY31bahRANCAASSzZReINL0E0zKK/oEM5uK3t9DvdOX\n"
  "/hkCUMytgS+HXEgDA4kAfR9TP5qq39IAiX+9TbrtFslcHggVGqbv6q9j\n"
  "-----END PRIVATE KEY-----\n";

#define TEST_EC_X "ks2UXiDS9BNMyiv6BDObit7fQ73Tl_4ZAlDMrYEvh1w"
#define TEST_EC_Y "SAMDiQB9H1M_mqrf0gCJf71Nuu0WyVweCBUapu_qr2M"
#define TEST_EC_THUMBPRINT "MK2kaOQbI48g0hkoKmbJzywJZv9-F8nojVr65rPEpQY"

static const char TEST_RSA_PKCS1_PEM[] =
  "-----BEGIN RSA PRIVATE KEY-----\n"
  "MIIEpQIBAAKCAQEAtm7Eg2sGCiigbE9elTq47azek0OyYUbI2kXRMQuarsCDt6ef\n"
  "ym29IjogKIG9rGcgOZ8+cHVN+hD1/xE83R4z51D6957W8Xw7lnU6ROpHvIJ/Uvi9\n"
  "5Ily0j9PoFanX4UeCk8HRIwLCniensI6eiyppbfEMmeGdZDYEoBAuN/v231dLaBK\n"
  "38Z/SRBxl6nhCBuwUWmK2Oo542a9jutkU0wbffCkMkIEilkSQpCzoPMMoIQm0g3I\n"
  "mgjfCqTaXyWqvKxEECy6/d4xWDHNAEIkyaTuC71f4dNllk9zJVltvuXsJKt3dczd\n"
  "i6ILxmPALZ7RygLeFeCN30SxOK0e10LaLRaVVQIDAQABAoIBADgPvwTxoRgDFxVh\n"
  "qJusQYMMYhOYNJtvIK7u0JPFUKIOGAwaj2CqK3p2qUY5ZHuz7zO1636slatYhff9\n"
  "qJn8u4+Ek7L/lWb9OeSJHsBpzGSyJ4VsWhJ+aJISkZogtuuEIVCiq4WVkZkEqx33\n"
  "avf7fKCn4btpk+jR+4xn7DvD2VY14UnpqX18HWGiunoQty8qxFfnyzvbl9BS6x7O\n"
  "/V2aYl91AeV+/ENNNuRioja+fm9ytTNxnrbJGMjX21aR+7UzXpAbq80t53sQxhPl\n"
  "GiEh160rsFNLl//MHXjfI15iRN9gMOJmh7LhyBl1iZfEKYlzCWq/f3d1bgIEid5y\n"
  "k6PVyKsCgYEA7MA9PDaVSa78F8WiMI6X6nfJAOLOJ9F17VhJqhaPjzxoTMbUq1TF\n"
  "T3Nw4Ej8qpOiRTFFjMZSC3HRfw9ZPassqSgMs8G/P3rsQQMCWz8eCKtCaPFDF3xX\n"
  "nRf4SUNN0OlGtPLoqfWELNH5GqXZ6tHXCi1SYA/obRiXK/zmBPv/jjMCgYEAxUPx\n"
  "NzvPUJDX41Cz0rhy/maRlQ5ynRHSxVLBEkmag3l2yFp9pCBS+aT/pUKccRAqmd1A\n"
  "lSg6V/EcREEYAq9QqkZokrFeHjvQu/Jt9f1cjPTmTjjpSx2bw7XAoIUOVm7nzdX/\n"
  "zYwYEyT6gApunsLgwz1//yjx5EayImF/X+5HtlcCgYEApzJATKTTm1zbpcIp/5bE\n"
  "TI7ZwilqpA419S9Tnq4eJm7nzcjhajoMukZxocOJxMFMaQcZ8ggg6vovlEb3pCid\n"
  "+rxQ9CXQ9XjPHj6MzHnvsPmZhdlUo2Jp0YSbEMpaSz5jc+jUTSsZdDm5bYtRMZeO\n"
  "AR7uvO6fG2SxZhxNKZn56acCgYEAnAaNN966r0KhP06JrNXvPoDqDTeMN+ftCd3W\n"
  "kBxfdjYQWZAZaEOY3ZRAD/qLunHLAEAb4N4cp4oxjVrfHuCDsOpXtA9OHiO5ia7K\n"
  "gpKPLX5W2u/wtlUI6tdLMKuNF5hJCGmHFpEEScAp0jRuImyJUmPGZY+BI8k3BDKR\n"
  "iNLzLakCgYEApUPucvmZQg6DS9VUO/oXBPM/3SypZvzjl++4kw9XECfiq8SwNUJP\n"
  "6ekkb1Lr/xvXYSk8uQR+1ncaJ3NEIQfYdTIfO792Pnvci+L3jr9f//R842kuqOBr\n"
  "UmXP/RpL6vf5KTE/izI5SdeLxk8tbupPMSop9jBASPU0YTlLFtHR2Nw=\n"
  "-----END RSA PRIVATE KEY-----\n";

#define TEST_RSA_N "tm7Eg2sGCiigbE9elTq47azek0OyYUbI2kXRMQuarsCDt6efym29IjogKIG9rGcgOZ8-cHVN-hD1_xE83R4z51D6957W8Xw7lnU6ROpHvIJ_Uvi95Ily0j9PoFanX4UeCk8HRIwLCniensI6eiyppbfEMmeGdZDYEoBAuN_v231dLaBK38Z_SRBxl6nhCBuwUWmK2Oo542a9jutkU0wbffCkMkIEilkSQpCzoPMMoIQm0g3ImgjfCqTaXyWqvKxEECy6_d4xWDHNAEIkyaTuC71f4dNllk9zJVltvuXsJKt3dczdi6ILxmPALZ7RygLeFeCN30SxOK0e10LaLRaVVQ"
#define TEST_RSA_THUMBPRINT "dL2s6jBVg1RYtmJShzUJisffe3HGk4e59YeO5xWjmJ0"

static const char TEST_EC_P384_PEM[] =
  "-----BEGIN EC PRIVATE KEY-----\n"
  "MIGkAgEBBDBSLajOBS5jgApukomQvIwME+SPH+vTvGyiP5N+VA8Xc9R03qidBlxk\n"
  "JXgxiNbtmB+gBwYFK4EEACKhZANiAATDeNLKUwCjo9nwxlz1Mq/z7UVgLP9JT/UK\n"
  "TN/6h/MeyPBmXyH/XhdDuXgvCr+zrWzRbOVtUqFRx7Zf2jFZxnkJDx05g88y3Lcp\n"
  "hdlcTln0n8hQEW2uz91BdAdgi3GIoBE=\n"
  "-----END EC PRIVATE KEY-----\n";

static const char TEST_RSA_1024_PEM[] =
  "-----BEGIN RSA PRIVATE KEY-----\n"
  "MIICXAIBAAKBgQDN0yp/WcH+arK0W7ILEhQssbvhXghS8CZ1yYTy9tYFuV1NQSll\n"
  "ZcUlxeJ6uP2uQtHGyJxdjE456dt7IjM8N0jWz+xvsxBXJcJBA86fpdmmZEfvl7PI\n"
  "0I7DXlj3j5cq0auiHon7ZVQ6L+bP3L29yZnyZLag6mpJvxjSru1fMPZReQIDAQAB\n"
  "AoGAW3xC5Xw1+Cng6L3hM36DrSILCq9LL+JClhROndgNZVnxGMef6MwFhzaf5kCX\n"
  "sX9N0veUWRhmJOPHhMG82EUSgGyXDBDKcUJv+tc48siOtegmdYby6FxLY9o5XM8s\n"
  "tD/kLXBcfBQqpFv+feMST72V1LNyTGX8NnR8Ro5YMiTbo4kCQQDtxl7t80mcs/+O\n"
  "6oPzt9wlVGbNSr5YhTmDMUfHBJWuZ2RWbeLkCcSkNXcHZCTQh3xRyL57Y8EiVdVF\n"
  "bN81mVcvAkEA3Zne2r7cUFNoUzLwLllGSt1olA9xTDi2U+TjJ49EBHyP29BEcLXC\n"
  "I1EVC43GUicp5309JJWMfZejK2Xijv031wJAfMrML96sF85wpjV3I4avx/fQLJa5\n"
  "6AOj97L5lP5XAL3K74Gkv0JRLk3RNtPcboVtPg85ydDFIJwj3tgRHjRoiQJAQlFT\n"
  "NUmbK1raxNNgt6418B+0tWKtuG7cedzs8iDY7TLN5q28XbK3Z9RTJQMHz/wyeTms\n"
  "u68ZvVhNF6bFF5/GPwJBAJoJsJFwFF57bridqdaseh9l3ZSMf6TjwevjQ8RaECK/\n"
  "lAPmjfuKfVN5Fbn+6Ox+Xoo+S8SLTZuqbmnPqcVukrw=\n"
  "-----END RSA PRIVATE KEY-----\n";
