package dev.weft.bench.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU-bound JSON work of the engine peer servers ({@code GET /api/report?size=n}), shared by all of
 * them so that every server does exactly the same work per request.
 *
 * <p>{@link #json(int)} builds an invoice-like report of {@code n} line items in memory and serialises it
 * with Jackson databind. Every value is derived from the line number by a fixed integer hash, so every
 * request with the same {@code n} builds the same document (the same strings, numbers and sort order)
 * and costs the same CPU; nothing is cached between requests. Per line it computes money amounts
 * (discount, tax, totals), formats strings with {@link String#format}, a date, and a 12- to 48-month
 * instalment plan in {@link BigDecimal} (month by month, to the cent); then it sums and averages the lines,
 * groups them by category (a {@link TreeMap}) and sorts a copy to list the five largest lines.
 *
 * <p>{@link #DEFAULT_SIZE}: on the 2-core benchmark machine (Temurin 25.0.3, after 4 s of warm-up, one
 * thread, measured with {@link ReportCost}) one {@code json(200)} took 1.3-1.4 ms of CPU and produced
 * 97,599 bytes of JSON ({@code json(150)}: 1.0 ms, 73,680 bytes); the cost grows linearly with {@code n}.
 * It allocates about 4.3 MB per call, most of it the BigDecimal arithmetic: with G1 and a 1 GB heap that is a
 * young collection of about 1 ms every 0.3 s at full speed on one thread, and the process spent 1.4 ms of
 * CPU per call in all, collector included.
 */
public final class Report {

    /** Line items when the request has no {@code size} parameter (about 1.3 ms of CPU, see above). */
    public static final int DEFAULT_SIZE = 200;
    /** Largest accepted {@code size}: a bound on the work one request can ask for. */
    public static final int MAX_SIZE = 10_000;
    /** The response's content type. */
    public static final String CONTENT_TYPE = "application/json";

    /** The plaintext body every server answers {@code GET /plaintext} with (13 bytes). */
    public static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private static final ObjectMapper MAPPER = new ObjectMapper(); // thread-safe once configured

    private static final String[] CATEGORIES = {
        "books", "electronics", "garden", "grocery", "health", "kitchen", "outdoor", "toys"};
    private static final int[] TAX_PERMILLE = {70, 200, 200, 55, 100, 200, 200, 200};
    private static final String[] COLOURS = {"black", "blue", "green", "grey", "red", "white"};
    private static final String[] SIZES = {"XS", "S", "M", "L", "XL"};
    private static final LocalDate FIRST_DAY = LocalDate.of(2026, 1, 1);
    private static final BigDecimal YEARLY_RATE = new BigDecimal("0.0790");
    private static final BigDecimal TWELVE = BigDecimal.valueOf(12);
    private static final MathContext MATH = MathContext.DECIMAL64;

    private Report() {
    }

    /** The whole document. */
    public record Document(String id, String title, String currency, String issued, int lineCount,
                           List<Line> lines, Summary summary, List<CategoryTotal> categories,
                           List<TopLine> largestLines) {
    }

    /** One line item with its computed amounts (cents) and formatted strings. */
    public record Line(int line, String sku, String description, String category, String shipDate,
                       int quantity, long unitPriceCents, int discountPercent, long grossCents,
                       long discountCents, long netCents, long taxCents, long totalCents,
                       String unitPrice, String total, String label, Instalments instalments) {
    }

    /** A monthly instalment plan for the line's total (annuity at a fixed yearly rate, to the cent). */
    public record Instalments(int months, String yearlyRate, String monthlyPayment, String lastPayment,
                              String interest) {
    }

    /** Totals over all lines. */
    public record Summary(long grossCents, long discountCents, long netCents, long taxCents, long totalCents,
                          long totalQuantity, double averageLineCents, double averageUnitPriceCents,
                          long smallestLineCents, long largestLineCents, String total, String averageLine) {
    }

    /** Totals of one category. */
    public record CategoryTotal(String category, int lines, long quantity, long totalCents,
                                double averageLineCents, double shareOfTotal, String total) {
    }

    /** One of the largest lines. */
    public record TopLine(int rank, int line, String sku, long totalCents, String total) {
    }

    /** The JSON of a report of {@code size} lines (1..{@link #MAX_SIZE}). */
    public static byte[] json(int size) {
        try {
            return MAPPER.writeValueAsBytes(build(size));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The report of {@code size} lines, computed afresh. */
    public static Document build(int size) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be 1.." + MAX_SIZE + ": " + size);
        }
        List<Line> lines = new ArrayList<>(size);
        long gross = 0, discount = 0, net = 0, tax = 0, total = 0, quantity = 0, unitSum = 0;
        long smallest = Long.MAX_VALUE, largest = Long.MIN_VALUE;
        Map<String, long[]> byCategory = new TreeMap<>(); // category -> {lines, quantity, total}
        for (int i = 1; i <= size; i++) {
            Line line = line(i);
            lines.add(line);
            gross += line.grossCents();
            discount += line.discountCents();
            net += line.netCents();
            tax += line.taxCents();
            total += line.totalCents();
            quantity += line.quantity();
            unitSum += line.unitPriceCents();
            smallest = Math.min(smallest, line.totalCents());
            largest = Math.max(largest, line.totalCents());
            long[] c = byCategory.computeIfAbsent(line.category(), k -> new long[3]);
            c[0]++;
            c[1] += line.quantity();
            c[2] += line.totalCents();
        }
        double averageLine = (double) total / size;
        Summary summary = new Summary(gross, discount, net, tax, total, quantity, averageLine,
                (double) unitSum / size, smallest, largest, money(total), money(Math.round(averageLine)));

        List<CategoryTotal> categories = new ArrayList<>(byCategory.size());
        for (Map.Entry<String, long[]> e : byCategory.entrySet()) {
            long[] c = e.getValue();
            categories.add(new CategoryTotal(e.getKey(), (int) c[0], c[1], c[2], (double) c[2] / c[0],
                    total == 0 ? 0 : (double) c[2] / total, money(c[2])));
        }

        List<Line> sorted = new ArrayList<>(lines);
        sorted.sort(Comparator.comparingLong(Line::totalCents).reversed().thenComparingInt(Line::line));
        List<TopLine> top = new ArrayList<>(5);
        for (int r = 0; r < Math.min(5, sorted.size()); r++) {
            Line l = sorted.get(r);
            top.add(new TopLine(r + 1, l.line(), l.sku(), l.totalCents(), l.total()));
        }

        return new Document("R-" + size, "Quarterly order report", "EUR", FIRST_DAY.toString(), size, lines,
                summary, categories, top);
    }

    private static Line line(int i) {
        long h = mix(i);
        int cat = (int) Long.remainderUnsigned(h, CATEGORIES.length);
        String category = CATEGORIES[cat];
        int quantity = 1 + (int) ((h >>> 8) % 20);
        long unit = 99 + (h >>> 16) % 50_000;
        int discountPercent = (int) ((h >>> 40) % 4) * 5;
        String colour = COLOURS[(int) ((h >>> 44) % COLOURS.length)];
        String size = SIZES[(int) ((h >>> 50) % SIZES.length)];
        LocalDate shipDate = FIRST_DAY.plusDays((h >>> 54) % 365);

        long grossCents = quantity * unit;
        long discountCents = grossCents * discountPercent / 100;
        long netCents = grossCents - discountCents;
        long taxCents = Math.round(netCents * TAX_PERMILLE[cat] / 1000.0);
        long totalCents = netCents + taxCents;

        String sku = String.format(Locale.ROOT, "%s-%05d-%s", category.substring(0, 3).toUpperCase(Locale.ROOT), i,
                size);
        String description = category + " item " + i + " (" + colour + ", size " + size + ")";
        String label = String.format(Locale.ROOT, "%d x %s @ %s, %d%% off", quantity, sku, money(unit),
                discountPercent);
        return new Line(i, sku, description, category, shipDate.toString(), quantity, unit, discountPercent,
                grossCents, discountCents, netCents, taxCents, totalCents, money(unit), money(totalCents), label,
                instalments(totalCents, 12 * (1 + (int) ((h >>> 58) % 4))));
    }

    /**
     * Pays {@code cents} back in {@code months} equal monthly payments at {@link #YEARLY_RATE}, month by month
     * in BigDecimal to the cent (the last payment takes the rounding rest), as a shop's instalment offer would.
     */
    private static Instalments instalments(long cents, int months) {
        BigDecimal principal = BigDecimal.valueOf(cents, 2);
        BigDecimal monthly = YEARLY_RATE.divide(TWELVE, MATH);
        BigDecimal growth = BigDecimal.ONE.add(monthly).pow(months, MATH);
        BigDecimal payment = principal.multiply(monthly).multiply(growth)
                .divide(growth.subtract(BigDecimal.ONE), MATH).setScale(2, RoundingMode.HALF_EVEN);
        BigDecimal balance = principal;
        BigDecimal interest = BigDecimal.ZERO;
        BigDecimal last = payment;
        for (int m = 1; m <= months; m++) {
            BigDecimal due = balance.multiply(monthly).setScale(2, RoundingMode.HALF_EVEN);
            interest = interest.add(due);
            balance = balance.add(due);
            last = m == months ? balance : payment;
            balance = balance.subtract(last);
        }
        return new Instalments(months, YEARLY_RATE.toPlainString(), payment.toPlainString(), last.toPlainString(),
                interest.toPlainString());
    }

    /** Cents as "1,234.56". */
    private static String money(long cents) {
        return String.format(Locale.ROOT, "%,.2f", cents / 100.0);
    }

    /** A fixed 64-bit mix of the line number (SplitMix64's finaliser), never negative. */
    private static long mix(long x) {
        long z = x * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) >>> 1;
    }

    /**
     * The {@code size} of a request from its raw query string (for servers without a query parser of
     * their own): {@link #DEFAULT_SIZE} without one, -1 if the value is not a number in 1..{@link #MAX_SIZE}.
     */
    public static int sizeFromQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return DEFAULT_SIZE;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.startsWith("size=")) {
                return parseSize(pair.substring(5));
            }
        }
        return DEFAULT_SIZE;
    }

    /** {@code value} as a size: {@link #DEFAULT_SIZE} if null, -1 if not a number in 1..{@link #MAX_SIZE}. */
    public static int parseSize(String value) {
        if (value == null) {
            return DEFAULT_SIZE;
        }
        try {
            int n = Integer.parseInt(value);
            return n >= 1 && n <= MAX_SIZE ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
