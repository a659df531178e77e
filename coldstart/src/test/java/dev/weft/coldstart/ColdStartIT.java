package dev.weft.coldstart;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.ConnectProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Started cold into traffic, as production starts an application: the clinic sample application (Spring MVC,
 * Thymeleaf, Spring Data JPA on H2 through HikariCP), an executable Spring Boot jar, on two cores, with 32
 * connections asking for its pages, its static file and its JSON report from the moment it listens, while its
 * classes are still being loaded and compiled. Started again and again, alternately on Weft and on Tomcat: Weft
 * never hangs, stops on SIGTERM every time, and has no more requests over two seconds than Tomcat.
 *
 * <p>(Spring Boot's executable-jar class loader locks while it loads classes; virtual threads pinned there on a
 * 2-core machine have been seen to deadlock for good. Under Boot, Weft runs application code on platform
 * threads unless {@code spring.threads.virtual.enabled} is set, as Tomcat does.)
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES)
class ColdStartIT {

    private static final int CONNECTIONS = 32;
    private static final int CORES = 2;
    private static final Duration SLOW = Duration.ofSeconds(2);
    /** A request unanswered this long is given up; a start whose every connection gave up has hung. */
    private static final Duration GIVE_UP = Duration.ofSeconds(20);
    /** How long a start may take to listen, and a SIGTERM to end the process. */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(45);
    private static final List<String> PATHS = List.of("/owners?lastName=Da", "/css/clinic.css", "/api/report",
            "/owners");

    @Test
    void startedColdIntoTrafficWeftNeverHangsStopsEveryTimeAndIsNoSlowerThanTomcat() throws Exception {
        Path weftJar = Path.of(System.getProperty("coldstart.weft.jar"));
        Path tomcatJar = Path.of(System.getProperty("coldstart.tomcat.jar"));
        int starts = Integer.getInteger("coldstart.starts", 30);
        Duration load = Duration.parse("PT" + System.getProperty("coldstart.load", "8s"));
        assertTrue(Files.isRegularFile(weftJar), weftJar + " (built by bench/clinic/weft)");
        assertTrue(Files.isRegularFile(tomcatJar), tomcatJar + " (built by bench/clinic/tomcat)");
        Path logs = Path.of(System.getProperty("coldstart.report")).resolveSibling("coldstart-logs");
        Files.createDirectories(logs);

        List<Start> weft = new ArrayList<>();
        List<Start> tomcat = new ArrayList<>();
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "%d cold starts each, %d connections from the moment the server listens, %s of load, %d cores%n"
                        + "%-7s %5s %9s %8s %8s %8s %8s %6s %8s %5s %9s%n", starts, CONNECTIONS, load, CORES,
                "server", "start", "listen s", "requests", "p50 ms", "p99 ms", "max ms", ">2 s", "gave up", "hung",
                "stop s"));
        for (int i = 1; i <= starts; i++) {
            // Alternate which goes first, so that neither always meets the other's leftover load.
            boolean weftFirst = i % 2 == 1;
            for (String server : weftFirst ? List.of("weft", "tomcat") : List.of("tomcat", "weft")) {
                Path jar = server.equals("weft") ? weftJar : tomcatJar;
                Start start = Start.run(server, i, jar, load, logs.resolve(server + "-" + i + ".log"));
                (server.equals("weft") ? weft : tomcat).add(start);
                report.append(start.line()).append('\n');
                System.out.println("ColdStartIT " + start.line());
            }
        }
        long weftSlow = weft.stream().mapToLong(s -> s.slow).sum();
        long tomcatSlow = tomcat.stream().mapToLong(s -> s.slow).sum();
        report.append(String.format(Locale.ROOT, "requests over 2 s: Weft %d, Tomcat %d; hung starts: Weft %d, Tomcat %d%n",
                weftSlow, tomcatSlow, weft.stream().filter(s -> s.hung).count(),
                tomcat.stream().filter(s -> s.hung).count()));
        Files.writeString(Path.of(System.getProperty("coldstart.report")), report);
        System.out.println(report);

        assertEquals(List.of(), weft.stream().filter(s -> s.hung).map(Start::line).toList(), "Weft hung");
        assertEquals(List.of(), weft.stream().filter(s -> !s.stoppedOnTerm).map(Start::line).toList(),
                "Weft ignored SIGTERM");
        assertEquals(List.of(), weft.stream().filter(s -> s.answered == 0).map(Start::line).toList(),
                "Weft answered nothing");
        assertTrue(weftSlow <= tomcatSlow, "requests over 2 s: Weft " + weftSlow + ", Tomcat " + tomcatSlow);
    }

    /** One start of one server: its load, and what came of it. */
    private static final class Start {
        final String server;
        final int number;
        double listenSeconds;
        long answered;
        long slow;
        long gaveUp;
        boolean hung;
        boolean stoppedOnTerm;
        double stopSeconds;
        final List<Long> latencies = new ArrayList<>();

        private Start(String server, int number) {
            this.server = server;
            this.number = number;
        }

        static Start run(String server, int number, Path jar, Duration load, Path log) throws Exception {
            Start start = new Start(server, number);
            int port = freePort();
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            long launched = System.nanoTime();
            Process process = new ProcessBuilder(List.of(java.toString(), "-XX:ActiveProcessorCount=" + CORES,
                    "-Xms256m", "-Xmx512m", "-jar", jar.toString(), "--server.port=" + port))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                Await.until(server + " to listen on " + port + " (log: " + log + ")",
                        () -> !process.isAlive() || !ConnectProbe.refused(port), START_LIMIT);
                assertTrue(process.isAlive(), server + " exited at start; log: " + log);
                start.listenSeconds = (System.nanoTime() - launched) / 1e9;
                start.load(port, load);
            } finally {
                long term = System.nanoTime();
                process.destroy(); // SIGTERM, as a container's stop sends it
                start.stoppedOnTerm = process.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
                start.stopSeconds = (System.nanoTime() - term) / 1e9;
                if (!start.stoppedOnTerm) {
                    process.destroyForcibly().waitFor();
                }
            }
            return start;
        }

        /** 32 connections at once, each asking for the next path as soon as it has its answer, for {@code load}. */
        private void load(int port, Duration load) throws InterruptedException {
            long end = System.nanoTime() + load.toNanos();
            AtomicLong answeredCount = new AtomicLong();
            AtomicLong gaveUpCount = new AtomicLong();
            AtomicInteger lastGaveUp = new AtomicInteger();
            List<List<Long>> perConnection = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(CONNECTIONS);
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(GIVE_UP).build()) {
                for (int c = 0; c < CONNECTIONS; c++) {
                    List<Long> mine = new ArrayList<>();
                    perConnection.add(mine);
                    int first = c;
                    Thread.ofPlatform().daemon().name("coldstart-client-" + c).start(() -> {
                        boolean lastTimedOut = false;
                        try {
                            for (int r = first; System.nanoTime() < end; r++) {
                                URI uri = URI.create("http://127.0.0.1:" + port + PATHS.get(r % PATHS.size()));
                                long sent = System.nanoTime();
                                try {
                                    HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(uri)
                                            .timeout(GIVE_UP).build(), HttpResponse.BodyHandlers.ofByteArray());
                                    long took = System.nanoTime() - sent;
                                    if (response.statusCode() == 200) {
                                        mine.add(took);
                                        answeredCount.incrementAndGet();
                                        lastTimedOut = false;
                                    }
                                } catch (HttpTimeoutException e) {
                                    mine.add(GIVE_UP.toNanos());
                                    gaveUpCount.incrementAndGet();
                                    lastTimedOut = true;
                                } catch (IOException e) {
                                    lastTimedOut = false; // a refused or reset connection: the next one retries
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            if (lastTimedOut) {
                                lastGaveUp.incrementAndGet();
                            }
                            done.countDown();
                        }
                    });
                }
                done.await();
            }
            for (List<Long> mine : perConnection) {
                latencies.addAll(mine);
            }
            answered = answeredCount.get();
            gaveUp = gaveUpCount.get();
            slow = latencies.stream().filter(n -> n > SLOW.toNanos()).count();
            // Hung: every connection's last request went unanswered for the whole give-up time.
            hung = lastGaveUp.get() == CONNECTIONS;
        }

        String line() {
            List<Long> sorted = latencies.stream().sorted().toList();
            return String.format(Locale.ROOT, "%-7s %5d %9.1f %8d %8.1f %8.1f %8.1f %6d %8d %5s %9.1f%s", server,
                    number, listenSeconds, answered, percentile(sorted, 50), percentile(sorted, 99),
                    sorted.isEmpty() ? 0 : sorted.getLast() / 1e6, slow, gaveUp, hung ? "YES" : "no", stopSeconds,
                    stoppedOnTerm ? "" : " (ignored SIGTERM)");
        }

        private static double percentile(List<Long> sorted, double p) {
            if (sorted.isEmpty()) {
                return 0;
            }
            int i = (int) Math.ceil(p / 100 * sorted.size()) - 1;
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i))) / 1e6;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
