package dev.weft.micronaut.multipart;

import dev.weft.httpserver.forms.MultipartPart;
import dev.weft.micronaut.http.SizeLimitedInput;
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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A file part read from the connection as the route consumes it: as {@link PartData} pieces of up to 8 KiB, an
 * {@code InputStream}, or copied to a file or stream; reads block, so they run on Micronaut's blocking executor.
 * At most {@code micronaut.server.multipart.max-file-size} bytes are accepted, beyond which the read fails with
 * Micronaut's {@link ContentLengthExceededException}. It can be consumed once.
 */
final class WeftStreamingFileUpload extends FilePart implements StreamingFileUpload {

    private static final int PIECE = 8192;

    private final MediaType contentType;
    private final SizeLimitedInput body;
    private final Scheduler scheduler;
    private final AtomicBoolean consumed = new AtomicBoolean();
    private volatile File written;

    WeftStreamingFileUpload(MultipartPart part, MediaType contentType, long maxFileSize, Executor ioExecutor) {
        super(part.name(), part.filename().orElse(""), contentType);
        this.contentType = contentType;
        this.body = new SizeLimitedInput(part.body(), maxFileSize, read -> tooLarge(part.name(), maxFileSize));
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
            throw new IllegalStateException("The upload " + getName() + " was consumed already");
        }
        consumed.set(true);
        return body;
    }

    @Override
    public long getSize() {
        return body.bytesRead();
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
}
