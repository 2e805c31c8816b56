/// A 2048-bit RSA key made with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`, and what the
/// OpenSSL command line made from it, so the Swift code is checked against an independent implementation.
/// Test material only: never used outside the tests. Each PEM ends in a line break, as the tools write it (hence the
/// empty line before each closing `"""`).
enum RSATestKey {
    /// The private key as PKCS#8 (`-----BEGIN PRIVATE KEY-----`), as in a Google service-account key file.
    static let pkcs8PEM = """
-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCmHVIP5f0V8gA9
0t2qCBpNbRt4JKu0ratJ9Odz9M1wxtCgz+MvHgsm3Z0Z14GxEtfMGvR3J8hPvjzv
pWgACIpsEWknkXF3TX0hxvPp6GyFghPIn64WxZnLXKG7ULXS9TN/EY6GEQnETOcq
im3UX9FiBed37Wi0qeA77y2YOFxPh5FovSznZLSI8oqME7bM4z/ccQ4q9/29dlaW
CgBrO077UdJXoqSvSSeP/gdZd1OuZIE+g6d/rpDSZa9Oik80u/hUtJIa287QDXHI
Yzh/P9ZYp8hz+qmR8Wrgn8BkkZpP4e9+fCw87uZqr9ScKlZUQec4Z/FJhJ6DRBZh
LAGA3K77AgMBAAECggEABrNNEZYZ0M5LozLDvS2JfhEGGCEGigmtTJTj1yILPV7P
oITyKX7hPUaYJSgzs4RKjxGRRdMlec33IEWAPewaRUSohK+Rr5nBD+E6CnfVFMeL
675BI+sBipnobilRxDoewyPep1q9lZzygB1IU9YvmHAbh5Ncc1kc0d4SbT7svkpt
eKbAd7Kj6dUImx7DX4ZUyGgUHVgof/2GOS82qS9V5FLQMEIywfbMhVafZsawmo4h
QNVfUEDA7VnlsxVfA52ChWO31BcTE+ZSWmJQW0A9h+jBFdSdMErAg2CoH+i7WzWr
mvsIX5D9gp8ueplOo3142aGWBdP5jDSVfAJ07mdy2QKBgQDPgeZu5fbj5Gtij5+8
zMHDOvDXEBcmZg41wLbSV4AwJ8+EVC/h7SUOdU+67dMwtSvTARemk+GKvKWU8O+S
FKr9H+YFDgSSFvKJHk02mQZ7x6Pug7X8MMcO7J6LzG24CWAIDXGL3hJ26iWj9HoR
L2YUXrA6Q3o6EpDopL4z9gctwwKBgQDM7xjfkOOQMo0FZh6ckbZA9B6xqkYalVWc
YfHSLzv12NC+utQJSqIjc/RjbhoNc3X/7drGnEmkHq1DL6V6jFUk9GJbrf59dsdP
cQe/muuo5YenIxc1WpYEZWOxXjHNp2UDzSwyNDc3hFixxAkM8n2QaEYztxEWIGfd
vG9C4QjOaQKBgEPEfZf8HExCvds7YoSLLkBvEFZ8F8NfkwZ1AH/jOacAaWIjCFw1
UWPOZhJ7NvxyPnSzp6CsLP1dLIpewS6o90qhT0KZWF7Jhb3IGplZEmf8RApSE23g
FDJIjmLDiZWP4j/e/BUcmlUhlNddsTvJigHfBpiQjutGQvLnUoKvt5p3AoGAA1Yl
NoaaXd+k0iCugOgSao5O7Z+TEp25zhj+Iejo9gC4rVJHX3talm8t3GyPegaWNjt+
I1uqC0UAlyZwcEVWoYplC48SpKJJbm6trJ3uFkreYYc9un2mEZ5A+ENLVkjSaTRu
8sZM29eIxiQl7ZMJHk/ETNU/LvgKGN8XhKQ7S3kCgYEAoySptlT3qzRKGEpkPA9X
cKcKT0QxIsRMAucVWXdj+Ek9J06CWpHbmIdY4aCauBiz7fJ2prpA7e3rpmOziUxf
e4IbRH6KsQ1bVQp2TR+8IyYhbN5GnPHhgnivK/eJWhe3j7GGpvZDBwG3A2SJ3+tE
vWfVMM4PEhZLxJjnXy/AWd0=
-----END PRIVATE KEY-----

"""
    /// The same key as PKCS#1 (`openssl rsa -traditional`).
    static let pkcs1PEM = """
-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAph1SD+X9FfIAPdLdqggaTW0beCSrtK2rSfTnc/TNcMbQoM/j
Lx4LJt2dGdeBsRLXzBr0dyfIT74876VoAAiKbBFpJ5Fxd019Icbz6ehshYITyJ+u
FsWZy1yhu1C10vUzfxGOhhEJxEznKopt1F/RYgXnd+1otKngO+8tmDhcT4eRaL0s
52S0iPKKjBO2zOM/3HEOKvf9vXZWlgoAaztO+1HSV6Kkr0knj/4HWXdTrmSBPoOn
f66Q0mWvTopPNLv4VLSSGtvO0A1xyGM4fz/WWKfIc/qpkfFq4J/AZJGaT+Hvfnws
PO7maq/UnCpWVEHnOGfxSYSeg0QWYSwBgNyu+wIDAQABAoIBAAazTRGWGdDOS6My
w70tiX4RBhghBooJrUyU49ciCz1ez6CE8il+4T1GmCUoM7OESo8RkUXTJXnN9yBF
gD3sGkVEqISvka+ZwQ/hOgp31RTHi+u+QSPrAYqZ6G4pUcQ6HsMj3qdavZWc8oAd
SFPWL5hwG4eTXHNZHNHeEm0+7L5KbXimwHeyo+nVCJsew1+GVMhoFB1YKH/9hjkv
NqkvVeRS0DBCMsH2zIVWn2bGsJqOIUDVX1BAwO1Z5bMVXwOdgoVjt9QXExPmUlpi
UFtAPYfowRXUnTBKwINgqB/ou1s1q5r7CF+Q/YKfLnqZTqN9eNmhlgXT+Yw0lXwC
dO5nctkCgYEAz4HmbuX24+RrYo+fvMzBwzrw1xAXJmYONcC20leAMCfPhFQv4e0l
DnVPuu3TMLUr0wEXppPhiryllPDvkhSq/R/mBQ4EkhbyiR5NNpkGe8ej7oO1/DDH
Duyei8xtuAlgCA1xi94Sduolo/R6ES9mFF6wOkN6OhKQ6KS+M/YHLcMCgYEAzO8Y
35DjkDKNBWYenJG2QPQesapGGpVVnGHx0i879djQvrrUCUqiI3P0Y24aDXN1/+3a
xpxJpB6tQy+leoxVJPRiW63+fXbHT3EHv5rrqOWHpyMXNVqWBGVjsV4xzadlA80s
MjQ3N4RYscQJDPJ9kGhGM7cRFiBn3bxvQuEIzmkCgYBDxH2X/BxMQr3bO2KEiy5A
bxBWfBfDX5MGdQB/4zmnAGliIwhcNVFjzmYSezb8cj50s6egrCz9XSyKXsEuqPdK
oU9CmVheyYW9yBqZWRJn/EQKUhNt4BQySI5iw4mVj+I/3vwVHJpVIZTXXbE7yYoB
3waYkI7rRkLy51KCr7eadwKBgANWJTaGml3fpNIgroDoEmqOTu2fkxKduc4Y/iHo
6PYAuK1SR197WpZvLdxsj3oGljY7fiNbqgtFAJcmcHBFVqGKZQuPEqSiSW5urayd
7hZK3mGHPbp9phGeQPhDS1ZI0mk0bvLGTNvXiMYkJe2TCR5PxEzVPy74ChjfF4Sk
O0t5AoGBAKMkqbZU96s0ShhKZDwPV3CnCk9EMSLETALnFVl3Y/hJPSdOglqR25iH
WOGgmrgYs+3ydqa6QO3t66Zjs4lMX3uCG0R+irENW1UKdk0fvCMmIWzeRpzx4YJ4
ryv3iVoXt4+xhqb2QwcBtwNkid/rRL1n1TDODxIWS8SY518vwFnd
-----END RSA PRIVATE KEY-----

"""
    /// The same key encrypted (`openssl pkcs8 -topk8 -v2 aes-256-cbc -passout pass:secret`).
    static let encryptedPEM = """
-----BEGIN ENCRYPTED PRIVATE KEY-----
MIIFLTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIG4iNBzYvqtUCAggA
MAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBAbXb3lnxTdtD5CKcXRnJqiBIIE
0FjsY7nWPCjcU3C8nrpzngYg9bPle5axT2gDyPQfjmo4MUENi0lSXn/BgtFJzO6c
SduKFgzudnCjxcPAWCWexz/lK1K/HMUULhM4d3ew9dornZMWKHz8lTCUs6ZGrP0r
GKAE+cUb76j91nWGhMOrZquQh3vHThCnR6inAgVOqTaUZkAHRjS5zvwOEDFGHASH
v8xQB57pwtlS8k6Y7i8alXGZ06y/yfrZXBPBnIn2Ub2AwTBa3E1pIY3bID2WZYQw
i432S9YvPyq8C2TqSO3mCRIIWP4YMh2piEvu3bgnmkAZX1S9BO/m9QA8b6BnnkKN
Qz5CS6fi2LYfQU3DLQ8nIt7pWeuGlRsZaDB1Y54f7kYJtszto3/pIsOAP5xchH5u
kuFK09oRFXtynpNIkZytPscO2FGE0UIDtiUXMsCmGJZnRAM6gKuIKyjTSLRZCB/K
jyB04nLMSBBjiHzX69WgdiaAQF+9lTn/90BpIRotBWxiPMbgcaGI9EHDErojglsQ
pphJZ7nu4lmG89DPb0pzDF1E/qIkQ5HSnXB5Ls6v4bJIziLZDwp/7RpjEQhnfgkz
VenjQE1s//vCqf0Fhi67F00DizzwsMy8WdvelXDnwjgfVQszeeNXkvXiyejE/szU
Fw9dadbUc6S5gqpU8BbHElRdPXLpaqeYp9UuIz3mhwNheym5KdbVAZ/FWLBSjZFA
4X2jxenh00zBi5bs1PGYBNia1NZkQo8QqNMP0pzVmNYGJ60dU7GetMQ7h/xPZNEk
4yTm2BBn8QVm1gC+C2IPCPul1iO3ptP/gr/spzE4L6ch8qJBrsfu1lEHlDZr6VFJ
tXifo8De5dW4Q12BSGP2O6Aa6ZHqmSW1ZM9m9wXlVqEjfsjuWFd1n/IS+TdHdHB0
LbjMBJgd27+lO/FSfIWz8Kfc19DNqVa1bF/K7lS8in2sCPszSboS9u9gOyzHbkY+
o9q65h+ld2+6YjLo8NlxyjCnwIyCRRkNdG4k1YaGWd2SRanmIk3F3TxeaDjkn3fD
1n5wq6dsRiDruDMMmNSxKPQ+7/IJg0eh3xnPhJwC4HGbEBsQVFvrutMfzpPhXU1f
+MJEhpRz/49ubQlne4KRRiXG7d89/xYHtU95zdDHFNd1eG8V+vuV62D2XnGW12mU
PXarc+3JpkbSMkRV9SjYgJ9IuG/2kYgURMpHW76oSbffsGOC81Pja1fGnchtG7rl
c8E0Kr5pHMCI5nlsnL11ONydDf4e/R5Krn6Du9dC+f+u41qJFJXfM+UlzipoVBfC
peLUbtBh6G57tBIZm2JrD1iDvWe3mYLZM1j33YxqbOyMmaP4q2B49d1QYjuiHISI
Csd3v7CLGBxuHs3nWeipjW8aSF0m16VmQnC+FpG90MPic6034USMpIOmE/eeGJ08
cW4/n0Rndkbq0ALSLNuFlSWR2HqNLmUQZOksz8uNacNWSv+Ow/XheLPdN0xIbn+0
2E27gxAZ9YKOzzVMGqxw7jH9hhAe/Z/o5Aq2Aa/iNuWL2I2y/klJc5zF2F2bacNZ
l2RRO9SDlq/tYl71tzrMMUP0iBnJvQVqyRuQEigab7PV1nevdp77LbOAQeTyVC+V
LxTJMT8An72Jes/e9ZPsw6VemoYfAeVT4NTJ46di5eT4
-----END ENCRYPTED PRIVATE KEY-----

"""
    /// The public key (`openssl pkey -pubout`).
    static let publicPEM = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAph1SD+X9FfIAPdLdqgga
TW0beCSrtK2rSfTnc/TNcMbQoM/jLx4LJt2dGdeBsRLXzBr0dyfIT74876VoAAiK
bBFpJ5Fxd019Icbz6ehshYITyJ+uFsWZy1yhu1C10vUzfxGOhhEJxEznKopt1F/R
YgXnd+1otKngO+8tmDhcT4eRaL0s52S0iPKKjBO2zOM/3HEOKvf9vXZWlgoAaztO
+1HSV6Kkr0knj/4HWXdTrmSBPoOnf66Q0mWvTopPNLv4VLSSGtvO0A1xyGM4fz/W
WKfIc/qpkfFq4J/AZJGaT+HvfnwsPO7maq/UnCpWVEHnOGfxSYSeg0QWYSwBgNyu
+wIDAQAB
-----END PUBLIC KEY-----

"""
    /// A P-256 key: not RSA.
    static let ecPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgL6Qc5Om1LqSqk3n/
kQEc5BSDjVYSyNr6uJ6YvFJBQCmhRANCAARFCg9LGjTifEmqaaY0SAzLg/5CxgNh
lqn+7lTxEp40Wbj9p3aFx2WBP5JFL6mkVdB/a9eJINNdw3ZAEKAR0QLK
-----END PRIVATE KEY-----

"""
    /// The modulus as a JWK `n` (base64url of `openssl rsa -modulus`).
    static let modulus =
        "ph1SD-X9FfIAPdLdqggaTW0beCSrtK2rSfTnc_TNcMbQoM_jLx4LJt2dGdeBsRLXzBr0dyfIT74876VoAAiKbBFp"
        + "J5Fxd019Icbz6ehshYITyJ-uFsWZy1yhu1C10vUzfxGOhhEJxEznKopt1F_RYgXnd-1otKngO-8tmDhcT4eRaL0s"
        + "52S0iPKKjBO2zOM_3HEOKvf9vXZWlgoAaztO-1HSV6Kkr0knj_4HWXdTrmSBPoOnf66Q0mWvTopPNLv4VLSSGtvO"
        + "0A1xyGM4fz_WWKfIc_qpkfFq4J_AZJGaT-HvfnwsPO7maq_UnCpWVEHnOGfxSYSeg0QWYSwBgNyu-w"
    /// The public exponent 65537 as a JWK `e`.
    static let exponent = "AQAB"
    /// The message signed on the command line.
    static let message = Array("handoff RS256 fixture".utf8)
    /// `openssl dgst -sha256 -sign key.pem` of `message`, base64url.
    static let signature =
        "T0cXEAG9pynhZOaev3oIaWd1XUiam77Z0BisJaj60Eyft0A5I2r2KhWPJnbVxhbhZIw3otw7atXA1ZCXIPRAy5zk"
        + "NDaElAdbrmow70mDjFJrT9kDph3uoDUCvm5D7doaQ02BIgzbKrHIGbmuNcGvfQxy_Pu4yp5G79f8MWkQz7A4gyKv"
        + "lWSbPdC1hzVay5FUnv4dF43hNzWZMRpdW-ek8HLm2pNSggGKVsncueReApAJutx8gYuCpjnbBxbk1bOYuos6A1bB"
        + "oxP-qh0MtBBtbEvQsK4-mJECOUXB92HJzYxWzFXiO59aLRgAPNyNEdKwHW943jcK-1ogZ8DOBXl3mg"
}
