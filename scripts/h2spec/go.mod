module weft.invalid/h2spec-build

// Pins h2spec v2.2.1 and every module it builds with, so scripts/install-test-tools.sh builds the same binary
// everywhere and with any Go >= 1.19 (Debian bookworm's golang-go). Not part of the Java build.

go 1.19

require (
	github.com/fatih/color v1.13.0
	github.com/mattn/go-colorable v0.1.9
	github.com/mattn/go-isatty v0.0.14
	github.com/spf13/cobra v1.6.1
	github.com/spf13/pflag v1.0.5
	github.com/summerwind/h2spec v2.2.1+incompatible
	golang.org/x/net v0.7.0
	golang.org/x/sys v0.5.0
	golang.org/x/text v0.7.0
)
