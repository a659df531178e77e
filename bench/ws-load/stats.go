package main

import (
	"fmt"
	"sort"
	"time"
)

// percentile returns the nearest-rank p-quantile of sorted (ascending, not empty): the smallest
// value with at least p of the samples at or below it.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(p*float64(len(sorted))+0.999999999) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(sorted) {
		i = len(sorted) - 1
	}
	return sorted[i]
}

// printLatencies sorts lat (round-trip times) and prints its percentiles in microseconds.
func printLatencies(lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) string {
		if len(lat) == 0 {
			return "NA"
		}
		return fmt.Sprintf("%.1f", float64(percentile(lat, p).Nanoseconds())/1e3)
	}
	fmt.Printf("latency_us_p50=%s\n", pct(0.50))
	fmt.Printf("latency_us_p90=%s\n", pct(0.90))
	fmt.Printf("latency_us_p99=%s\n", pct(0.99))
	fmt.Printf("latency_us_p999=%s\n", pct(0.999))
	fmt.Printf("latency_us_max=%s\n", pct(1))
}
