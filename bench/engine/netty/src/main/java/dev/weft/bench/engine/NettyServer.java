package dev.weft.bench.engine;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Netty peer of bench/run-latency.sh, run-http1.sh and run-h2.sh: Netty 4.2 with the NIO transport and the HTTP/1.1 codec, written
 * the way a typical Netty user writes a small HTTP service.
 *
 * <ul>
 *   <li>a boss group of one event loop accepts, a worker group with Netty's default size (2 x CPUs) serves the
 *       connections; backlog 1024;</li>
 *   <li>{@code TCP_NODELAY} is set on accepted connections (Netty already turns it on by default on most
 *       platforms; setting it says so explicitly);</li>
 *   <li>{@link HttpServerCodec} only (no aggregator: the handler answers on the request head and drops the
 *       empty body), keep-alive by {@link HttpUtil#isKeepAlive}, fixed {@code Content-Length};</li>
 *   <li>the handler runs inline on the connection's event loop, report included; responses are written as
 *       the requests are decoded, so pipelined requests are answered in order, and flushed once per read
 *       ({@code channelReadComplete});</li>
 *   <li>a connection that opens with the HTTP/2 preface speaks h2c with prior knowledge ({@link ProtocolDetector},
 *       Netty's frame codec and multiplexer with their defaults; {@code GET /plaintext} only, for
 *       bench/run-h2.sh); any other gets the HTTP/1.1 pipeline above.</li>
 * </ul>
 *
 * <p>Usage: {@code java -cp target/classes:target/lib/* dev.weft.bench.engine.NettyServer PORT}; binds
 * 127.0.0.1 and prints {@code ready <server channel class> <port>} once it listens.
 */
public final class NettyServer {

    private NettyServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }, "netty-shutdown"));

        Channel channel = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new ProtocolDetector());
                    }
                })
                .bind("127.0.0.1", port).sync().channel();
        System.out.println("ready " + channel.getClass().getName() + " " + port);
        System.out.flush();
        channel.closeFuture().sync();
    }

    /** Answers each request head as it is decoded. */
    static final class Handler extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    respond(ctx, request);
                }
                // HttpContent (here always the empty LastHttpContent of a GET) is dropped.
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private static void respond(ChannelHandlerContext ctx, HttpRequest request) {
            if (request.decoderResult().isFailure()) {
                write(ctx, HttpResponseStatus.BAD_REQUEST, "text/plain", new byte[0], false);
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            String path = uri.path();
            if (!path.equals("/plaintext") && !path.equals("/api/report")) {
                write(ctx, HttpResponseStatus.NOT_FOUND, "text/plain", new byte[0], keepAlive);
                return;
            }
            if (!HttpMethod.GET.equals(request.method())) {
                write(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", new byte[0], keepAlive);
                return;
            }
            if (path.equals("/plaintext")) {
                write(ctx, HttpResponseStatus.OK, "text/plain", Report.HELLO, keepAlive);
                return;
            }
            List<String> sizes = uri.parameters().get("size");
            int size = Report.parseSize(sizes == null ? null : sizes.get(0));
            if (size < 0) {
                write(ctx, HttpResponseStatus.BAD_REQUEST, "text/plain",
                        ("size must be 1.." + Report.MAX_SIZE + "\n").getBytes(StandardCharsets.US_ASCII), keepAlive);
                return;
            }
            write(ctx, HttpResponseStatus.OK, Report.CONTENT_TYPE, Report.json(size), keepAlive);
        }

        private static void write(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType,
                                  byte[] body, boolean keepAlive) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(body));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            if (keepAlive) {
                ctx.write(response);
            } else {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
