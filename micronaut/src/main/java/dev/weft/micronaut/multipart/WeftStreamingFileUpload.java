package dev.weft.micronaut.multipart;

import dev.weft.httpserver.forms.MultipartPart;
import io.micronaut.http.MediaType;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import io.micronaut.http.multipart.PartData;
import io.micronaut.http.multipart.StreamingFileUpload;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file part read from the connection as the route consumes it: as {@link PartData} pieces of up to 8 KiB, an
 * {@code InputStream}, or copied to a file or stream; reads block, so they run on Micronaut's blocking executor.
 * At most {@code micronaut.server.multipart.max-file-size} bytes are accepted, beyond which the read fails with
 * Micronaut's {@link ContentLengthExceededException}. It can be consumed once.
 */
final class WeftStreamingFileUpload implements StreamingFileUpload {

    private static final int PIECE = 8192;

    private final String name;
    private final String filename;
    private final MediaType contentType;
    private final InputStream body;
    private final Scheduler scheduler;
    private final AtomicLong read = new AtomicLong();
    private final AtomicBoolean consumed = new AtomicBoolean();
    private volatile File written;

    WeftStreamingFileUpload(MultipartPart part, MediaType contentType, long maxFileSize, Executor ioExecutor) {
        this.name = part.name();
        this.filename = part.filename().orElse("");
        this.contentType = contentType;
        this.body = new Limited(part.body(), maxFileSize, name, read);
        this.scheduler = Schedulers.fromExecutor(ioExecutor);
    }

    @Override
    public Publisher<Boolean> transferTo(String location) {
        return transferTo(new File(location));
    }

    @Override
    public Publisher<Boolean> transferTo(File destination) {
        return Mono.fromCallable(() -> {
            try (OutputStream out = Files.newOutputStream(destination.toPath())) {
                take().transferTo(out);
            }
            written = destination;
            return true;
        }).subscribeOn(scheduler);
    }

    @Override
    public Publisher<Boolean> transferTo(OutputStream out) {
        return Mono.fromCallable(() -> {
            take().transferTo(out);
            return true;
        }).subscribeOn(scheduler);
    }

    @Override
    public Publisher<Boolean> delete() {
        return Mono.fromCallable(() -> {
            File file = written;
            return file != null && Files.deleteIfExists(file.toPath());
        }).subscribeOn(scheduler);
    }

    @Override
    public InputStream asInputStream() {
        return take();
    }

    @Override
    public void subscribe(Subscriber<? super PartData> subscriber) {
        Flux.<PartData>generate(sink -> {
            try {
                byte[] piece = take(false).readNBytes(PIECE);
                if (piece.length == 0) {
                    sink.complete();
                } else {
                    sink.next(new Piece(piece, contentType));
                }
            } catch (IOException | RuntimeException ex) {
                sink.error(ex);
            }
        }).subscribeOn(scheduler).subscribe(subscriber);
    }

    private InputStream take() {
        return take(true);
    }

    private InputStream take(boolean once) {
        if (once && !consumed.compareAndSet(false, true)) {
            throw new IllegalStateException("The upload " + name + " was consumed already");
        }
        consumed.set(true);
        return body;
    }

    @Override
    public Optional<MediaType> getContentType() {
        return Optional.ofNullable(contentType);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getFilename() {
        return filename;
    }

    @Override
    public long getSize() {
        return read.get();
    }

    @Override
    public long getDefinedSize() {
        return -1;
    }

    @Override
    public boolean isComplete() {
        return false;
    }

    /** One piece of the file. */
    private record Piece(byte[] bytes, MediaType type) implements PartData {
        @Override
        public InputStream getInputStream() {
            return new ByteArrayInputStream(bytes);
        }

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public ByteBuffer getByteBuffer() {
            return ByteBuffer.wrap(bytes);
        }

        @Override
        public Optional<MediaType> getContentType() {
            return Optional.ofNullable(type);
        }
    }

    /** Counts what is read and fails past the size limit. */
    private static final class Limited extends FilterInputStream {
        private final long limit;
        private final String name;
        private final AtomicLong read;

        Limited(InputStream in, long limit, String name, AtomicLong read) {
            super(in);
            this.limit = limit;
            this.name = name;
            this.read = read;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && read.addAndGet(n) > limit) {
                throw new ContentLengthExceededException("The part named [" + name
                        + "] exceeds the maximum allowed content length [" + limit + "]");
            }
            return n;
        }
    }
}
