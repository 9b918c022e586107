// The one QUIC set-up every connection of loiter's makes the same way, the HTTP/3 clients',
// the reference server's and its raw test client's: ngtcp2's crypto callbacks over GnuTLS
// (the handshake's CRYPTO data, packet protection, header protection, key updates, path
// challenges, version negotiation), random bytes from GnuTLS and, for a client, new
// connection IDs with their stateless reset tokens. Each side adds its own callbacks (its
// streams, its handshake's end) to what this returns. Header-only, below both clients/ and
// fixtures/ (library loiter_quic, as loiter_asio is).
#pragma once

#include <gnutls/crypto.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <cstddef>
#include <cstdint>

namespace loiter::quic {

enum class Side { client, server };

// Random bytes for ngtcp2 (its `rand` callback).
inline void random_bytes(std::uint8_t* dest, std::size_t size, const ngtcp2_rand_ctx*) {
  gnutls_rnd(GNUTLS_RND_RANDOM, dest, size);
}

// A random connection ID of `length` bytes and its stateless reset token (a client's
// `get_new_connection_id`: it keeps no table of them).
inline int random_connection_id(ngtcp2_conn*, ngtcp2_cid* cid, std::uint8_t* token,
                                std::size_t length, void*) {
  if (gnutls_rnd(GNUTLS_RND_RANDOM, cid->data, length) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
  cid->datalen = length;
  if (gnutls_rnd(GNUTLS_RND_RANDOM, token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0) {
    return NGTCP2_ERR_CALLBACK_FAILURE;
  }
  return 0;
}

// A client's first connection IDs, random: the destination's 18 bytes (RFC 9000 7.2: at least
// 8) and its own 17.
inline void random_client_ids(ngtcp2_cid& dcid, ngtcp2_cid& scid) {
  dcid = {};
  scid = {};
  dcid.datalen = 18;
  scid.datalen = 17;
  gnutls_rnd(GNUTLS_RND_RANDOM, dcid.data, dcid.datalen);
  gnutls_rnd(GNUTLS_RND_RANDOM, scid.data, scid.datalen);
}

// The callbacks a QUIC v1 connection over GnuTLS sets alike on `side`.
inline ngtcp2_callbacks crypto_callbacks(Side side) {
  ngtcp2_callbacks callbacks{};
  if (side == Side::client) {
    callbacks.client_initial = ngtcp2_crypto_client_initial_cb;
    callbacks.recv_retry = ngtcp2_crypto_recv_retry_cb;
    callbacks.get_new_connection_id = random_connection_id;
  } else {
    callbacks.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
  }
  callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
  callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
  callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
  callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
  callbacks.update_key = ngtcp2_crypto_update_key_cb;
  callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  callbacks.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
  callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  callbacks.rand = random_bytes;
  return callbacks;
}

}  // namespace loiter::quic
