module dev.weft/bench/ws-load

// Go 1.19 is the oldest Go this builds with (Debian bookworm's golang-go); no toolchain line, so no
// toolchain is ever downloaded.
go 1.19

require github.com/gorilla/websocket v1.5.3
