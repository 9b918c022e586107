# The scenario catalogue as CMake sees it: "id:family" for each scenario, in catalogue
# order. ctest needs the ids at configure time to give each scenario its own test and
# labels; the unit test Catalogue.CMakeListMatchesTheCatalogue keeps this list honest.
# Scenarios only run when named (never in a target's default gate): the soak (30 minutes by
# default; its ctest gates are short runs added by hand).
set(LOITER_ON_REQUEST soak)
set(LOITER_CATALOGUE
  silent:header
  partial-header:header
  header-trickle:header
  header-lines:header
  partial-body:body
  body-trickle:body
  idle-keepalive:keepalive
  keepalive-reuse:keepalive
  keepalive-partial:keepalive
  rst-abort:abort
  fin-close:abort
  slow-reader:not-cut
  long-response:not-cut
  stream:not-cut
  websocket:not-cut
  reader-pause:send
  idle-under-load:load
  soak:load
  held-capacity:capacity
  tls-record-header:tls
  tls-half-hello:tls
  tls-hello-trickle:tls
  tls-handshake-silent:tls
  h2-partial-preface:h2
  h2-no-settings-ack:h2
  h2-idle:h2
  h2-headers-no-end:h2
  h2-data-trickle:h2
  h2-zero-window:h2
  h2-window-trickle:h2
  h2-stream-reuse:h2
  # The flood family (never in the default `loiter check` run; RUN_SERIAL as load is).
  h2-rapid-reset:flood
  h2-continuation-flood:flood
  h2-settings-flood:flood
  h2-ping-flood:flood
)
