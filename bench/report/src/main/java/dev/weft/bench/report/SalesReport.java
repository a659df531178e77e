package dev.weft.bench.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A CPU-bound JSON document for benchmarks: a sales report of {@code size} line items, generated in
 * memory from a fixed seed (every request with the same size does exactly the same work and returns the
 * same bytes), with computed fields of the kind real report endpoints compute: per line, a year of daily
 * sales reduced to monthly totals, mean, standard deviation, trend, median and 95th percentile, prices,
 * discounts and taxes in {@link BigDecimal}, a formatted label; over all lines, totals per category,
 * average, median and 90th percentile, and a SHA-256 of the labels. The web layer serializes the
 * returned records with Jackson.
 *
 * <p>Benchmark code, compiled into both benchmark apps from here ({@code bench/clinic} serves it at
 * {@code GET /api/report} with Spring MVC, {@code bench/spring} with WebFlux).
 */
public final class SalesReport {

    /**
     * Line items when the request names no size: 200, a 96,248-byte JSON body. Measured on the 2-core
     * benchmark machine (JDK 25, -Xmx512m -XX:+UseParallelGC, after 3,000 warm-up calls, thread CPU time
     * of 1,000 calls in a loop): building the report costs 1.1 ms of CPU, building and serializing it
     * with Jackson 1.3 ms; served over HTTP (wrk -t1 -c1), 1.5 to 2.0 ms of server CPU per request on
     * each server (the whole process: request thread, GC, JIT). The cost grows linearly with the size
     * (5.5 to 6.5 microseconds a line). Details in bench/clinic/README.md.
     */
    public static final int DEFAULT_SIZE = 200;
    /** Largest size accepted; larger requests are cut to it. */
    public static final int MAX_SIZE = 20_000;

    private static final long SEED = 0x5EED_2026L;
    private static final String[] CATEGORIES = {"food", "medication", "toys", "grooming", "accessories", "services"};
    private static final String[] REGIONS = {"north", "south", "east", "west", "central"};
    private static final String[] ADJECTIVES = {"premium", "organic", "compact", "deluxe", "classic", "sensitive",
        "large", "small", "travel", "everyday"};
    private static final String[] PRODUCTS = {"kibble", "wet food", "flea collar", "chew toy", "brush", "shampoo",
        "leash", "harness", "litter", "vitamins", "dental sticks", "carrier", "bed", "scratching post"};
    private static final BigDecimal[] TAX_RATES = {new BigDecimal("0.0700"), new BigDecimal("0.0825"),
        new BigDecimal("0.0600"), new BigDecimal("0.0950"), new BigDecimal("0.0775")};
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM uuuu", Locale.ROOT);
    private static final LocalDate PERIOD_START = LocalDate.of(2025, 1, 1);
    private static final BigDecimal DISCOUNT_5 = new BigDecimal("0.05");
    private static final BigDecimal DISCOUNT_10 = new BigDecimal("0.10");
    private static final BigDecimal DISCOUNT_15 = new BigDecimal("0.15");
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
    private static final int DAYS = 365;
    /** The month (0 to 11) of each day of 2025. */
    private static final int[] MONTH_OF_DAY = new int[DAYS];
    /** The sum of (d - 182)^2 over the days d, the denominator of the least-squares slope. */
    private static final double DAY_INDEX_SQUARES;

    static {
        double squares = 0;
        for (int d = 0; d < DAYS; d++) {
            MONTH_OF_DAY[d] = PERIOD_START.plusDays(d).getMonthValue() - 1;
            squares += (d - (DAYS - 1) / 2.0) * (d - (DAYS - 1) / 2.0);
        }
        DAY_INDEX_SQUARES = squares;
    }

    private SalesReport() {
    }

    /** The whole report. */
    public record Report(String reportId, String title, String period, int size, List<LineItem> items,
            List<CategoryTotal> categories, Summary summary) {
    }

    /** One product line. */
    public record LineItem(int line, String sku, String description, String category, String region,
            int quantity, int[] monthlyQuantity, double dailyMean, double dailyStdDev, double trendPerMonth,
            int dailyMedian, int dailyP95, String bestDay, BigDecimal unitPrice, BigDecimal discountRate, BigDecimal net, BigDecimal tax, BigDecimal gross,
            String label) {
    }

    /** The lines of one category added up. */
    public record CategoryTotal(String category, int lines, int quantity, BigDecimal net, BigDecimal gross,
            BigDecimal averageGross, double sharePercent) {
    }

    /** All lines added up. */
    public record Summary(int lines, long quantity, BigDecimal net, BigDecimal tax, BigDecimal gross,
            BigDecimal averageGross, BigDecimal medianGross, BigDecimal p90Gross, BigDecimal minGross,
            BigDecimal maxGross, String labelsSha256) {
    }

    /** Builds the report of {@code size} lines (1 to {@link #MAX_SIZE}). */
    public static Report build(int size) {
        int n = Math.max(1, Math.min(size, MAX_SIZE));
        SplittableRandom random = new SplittableRandom(SEED);
        List<LineItem> items = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            items.add(lineItem(i, random));
        }
        return new Report(
                String.format(Locale.ROOT, "RPT-%08X-%05d", SEED, n),
                "Clinic shop sales",
                PERIOD_START.format(DAY) + " to " + PERIOD_START.plusMonths(12).minusDays(1).format(DAY),
                n, items, categoryTotals(items), summary(items));
    }

    private static LineItem lineItem(int line, SplittableRandom random) {
        String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
        int regionIndex = random.nextInt(REGIONS.length);

        // A year of daily unit sales (a base level, a weekly pattern, a drift and noise), reduced to
        // monthly totals, mean, standard deviation, least-squares trend, median, 95th percentile and
        // best day, as an analytics report would.
        int base = 1 + random.nextInt(4);
        int drift = random.nextInt(-2, 3);
        int[] daily = new int[DAYS];
        int[] monthly = new int[12];
        int quantity = 0;
        int bestDay = 0;
        for (int d = 0; d < DAYS; d++) {
            int weekday = (d + 2) % 7; // 1 Jan 2025 is a Wednesday; 0 = Monday
            int level = base * (weekday >= 5 ? 3 : 2) + drift * d / 120;
            daily[d] = Math.max(0, level + random.nextInt(-2, 3));
            monthly[MONTH_OF_DAY[d]] += daily[d];
            quantity += daily[d];
            if (daily[d] > daily[bestDay]) {
                bestDay = d;
            }
        }
        double mean = quantity / (double) DAYS;
        double variance = 0;
        double slopeNumerator = 0;
        for (int d = 0; d < DAYS; d++) {
            variance += (daily[d] - mean) * (daily[d] - mean);
            slopeNumerator += (d - (DAYS - 1) / 2.0) * (daily[d] - mean);
        }
        double stdDev = Math.sqrt(variance / DAYS);
        double trendPerMonth = slopeNumerator / DAY_INDEX_SQUARES * 30.4;
        int[] sorted = daily.clone();
        Arrays.sort(sorted);
        int median = sorted[DAYS / 2];
        int p95 = sorted[(int) Math.ceil(DAYS * 0.95) - 1];

        BigDecimal unitPrice = BigDecimal.valueOf(199 + random.nextInt(19_800), 2);
        BigDecimal discountRate = quantity >= 3_000 ? DISCOUNT_15
                : quantity >= 2_000 ? DISCOUNT_10
                : quantity >= 1_200 ? DISCOUNT_5 : BigDecimal.ZERO;
        BigDecimal list = unitPrice.multiply(BigDecimal.valueOf(quantity));
        BigDecimal net = list.subtract(list.multiply(discountRate)).setScale(2, RoundingMode.HALF_EVEN);
        BigDecimal tax = net.multiply(TAX_RATES[regionIndex]).setScale(2, RoundingMode.HALF_EVEN);
        BigDecimal gross = net.add(tax);

        String sku = String.format(Locale.ROOT, "%s-%04d-%c", category.substring(0, 3).toUpperCase(Locale.ROOT),
                line, (char) ('A' + random.nextInt(26)));
        String description = ADJECTIVES[random.nextInt(ADJECTIVES.length)] + " "
                + PRODUCTS[random.nextInt(PRODUCTS.length)];
        String bestDayText = PERIOD_START.plusDays(bestDay).format(DAY);
        String label = String.format(Locale.ROOT, "%-12s %-28s %6d x %9s -%3.0f%% = %12s",
                sku, description, quantity, unitPrice.toPlainString(),
                discountRate.multiply(HUNDRED).doubleValue(), gross.toPlainString());
        return new LineItem(line, sku, description, category, REGIONS[regionIndex], quantity, monthly,
                round2(mean), round2(stdDev), round2(trendPerMonth), median, p95, bestDayText,
                unitPrice, discountRate, net, tax, gross, label);
    }

    private static List<CategoryTotal> categoryTotals(List<LineItem> items) {
        Map<String, List<LineItem>> byCategory = new TreeMap<>();
        BigDecimal allGross = BigDecimal.ZERO;
        for (LineItem item : items) {
            byCategory.computeIfAbsent(item.category(), c -> new ArrayList<>()).add(item);
            allGross = allGross.add(item.gross());
        }
        List<CategoryTotal> totals = new ArrayList<>(byCategory.size());
        for (Map.Entry<String, List<LineItem>> e : byCategory.entrySet()) {
            int quantity = 0;
            BigDecimal net = BigDecimal.ZERO;
            BigDecimal gross = BigDecimal.ZERO;
            for (LineItem item : e.getValue()) {
                quantity += item.quantity();
                net = net.add(item.net());
                gross = gross.add(item.gross());
            }
            int lines = e.getValue().size();
            double share = allGross.signum() == 0 ? 0
                    : gross.multiply(HUNDRED).divide(allGross, 2, RoundingMode.HALF_EVEN).doubleValue();
            totals.add(new CategoryTotal(e.getKey(), lines, quantity, net, gross,
                    gross.divide(BigDecimal.valueOf(lines), 2, RoundingMode.HALF_EVEN), share));
        }
        return totals;
    }

    private static Summary summary(List<LineItem> items) {
        long quantity = 0;
        BigDecimal net = BigDecimal.ZERO;
        BigDecimal tax = BigDecimal.ZERO;
        BigDecimal gross = BigDecimal.ZERO;
        List<BigDecimal> grosses = new ArrayList<>(items.size());
        MessageDigest sha256 = sha256();
        for (LineItem item : items) {
            quantity += item.quantity();
            net = net.add(item.net());
            tax = tax.add(item.tax());
            gross = gross.add(item.gross());
            grosses.add(item.gross());
            sha256.update(item.label().getBytes(StandardCharsets.UTF_8));
        }
        grosses.sort(null);
        int n = items.size();
        BigDecimal median = n % 2 == 1 ? grosses.get(n / 2)
                : grosses.get(n / 2 - 1).add(grosses.get(n / 2)).divide(BigDecimal.TWO, 2, RoundingMode.HALF_EVEN);
        BigDecimal p90 = grosses.get(Math.min(n - 1, (int) Math.ceil(n * 0.9) - 1));
        return new Summary(n, quantity, net, tax, gross,
                gross.divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_EVEN), median, p90,
                grosses.get(0), grosses.get(n - 1), HexFormat.of().formatHex(sha256.digest()));
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
