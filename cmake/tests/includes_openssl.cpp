// As includes_asio.cpp, for OpenSSL.
#include <openssl/ssl.h>
