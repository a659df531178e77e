package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is USER_HZ, the unit of the CPU times in /proc/PID/stat and /proc/stat: 100 on every
// Linux architecture Go supports (the kernel fixes it for user space whatever its own HZ).
const clockTicks = 100

// cpuSample is one reading of the CPU counters that the echo report turns into per-message costs.
type cpuSample struct {
	at          time.Time
	server      time.Duration // user + system time of the server process (-pid); -1 when unknown
	self        time.Duration // user + system time of this process
	machineBusy time.Duration // busy time of all CPUs together (everything but idle and iowait)
}

func sampleCPU(pid int) cpuSample {
	s := cpuSample{at: time.Now(), server: -1, machineBusy: -1}
	if pid > 0 {
		if d, err := processCPU(pid); err == nil {
			s.server = d
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if d, err := machineBusy(); err == nil {
		s.machineBusy = d
	}
	return s
}

// processCPU reads utime + stime (fields 14 and 15) of /proc/PID/stat. The fields are counted after
// the command name, which is in parentheses and may contain spaces.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	return ticks(utime + stime), nil
}

// machineBusy sums the first line of /proc/stat without idle and iowait
// (cpu user nice system idle iowait irq softirq steal ...).
func machineBusy() (time.Duration, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line := string(b)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("unexpected /proc/stat")
	}
	var busy int64
	for _, k := range []int{1, 2, 3, 6, 7, 8} {
		v, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected /proc/stat")
		}
		busy += v
	}
	return ticks(busy), nil
}

func ticks(n int64) time.Duration {
	return time.Duration(n) * time.Second / clockTicks
}

// printCPU reports the CPU used between two samples: microseconds per message of the server and of
// this client, and the CPU everything else on the machine used, in % of one core.
func printCPU(a, b cpuSample, messages int64) {
	wall := b.at.Sub(a.at)
	self := b.self - a.self
	per := func(d time.Duration) string {
		if messages == 0 || d < 0 {
			return "NA"
		}
		return fmt.Sprintf("%.2f", float64(d.Nanoseconds())/1e3/float64(messages))
	}
	server := time.Duration(-1)
	if a.server >= 0 && b.server >= 0 {
		server = b.server - a.server
	}
	fmt.Printf("server_cpu_us_per_msg=%s\n", per(server))
	fmt.Printf("client_cpu_us_per_msg=%s\n", per(self))
	other := "NA"
	if server >= 0 && a.machineBusy >= 0 && b.machineBusy >= 0 && wall > 0 {
		o := b.machineBusy - a.machineBusy - server - self
		if o < 0 {
			o = 0
		}
		other = fmt.Sprintf("%.0f", float64(o)/float64(wall)*100)
	}
	fmt.Printf("other_cpu_pct=%s\n", other)
}
