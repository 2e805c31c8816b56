#ifndef HANDOFF_COPENSSL_SHIM_H
#define HANDOFF_COPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>

/* ---- issue14-google: RSA (RS256) — OSSL_PARAM_BLD for JWK keys, RSA key generation (Sources/Crypto/RSA*.swift) */
#include <openssl/bn.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
/* ---- end issue14-google */
#endif
