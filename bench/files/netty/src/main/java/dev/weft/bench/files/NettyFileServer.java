package dev.weft.bench.files;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Static files on Netty 4.2, the way Netty's own static file server example sends them over cleartext: NIO
 * transport, {@link HttpServerCodec} with an {@link HttpObjectAggregator}, and for a file the response head with
 * its {@code Content-Length}, then the file as a {@link DefaultFileRegion} (zero-copy: the NIO transport hands it to
 * {@code FileChannel.transferTo}, sendfile(2) on Linux; no {@code HttpChunkedInput}), then the empty last content.
 * Keep-alive by {@link HttpUtil#isKeepAlive}. A boss group of one event loop accepts, a worker group of Netty's
 * default size (2 x CPUs) serves the connections; backlog 1024, {@code TCP_NODELAY} as in bench/engine/netty.
 *
 * <p>Only plain file names directly in the directory are served ({@code /name}); anything else is 404, a method
 * other than GET 405.
 *
 * <p>Usage: {@code java -cp <module jar>:target/lib/* dev.weft.bench.files.NettyFileServer PORT DIR}
 */
public final class NettyFileServer {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");

    private NettyFileServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        FileServers.Args a = FileServers.parse(args, NettyFileServer.class);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }, "files-shutdown"));

        Channel channel = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, FileServers.BACKLOG)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(64 * 1024))
                                .addLast(new FileHandler(a.dir()));
                    }
                })
                .bind(FileServers.HOST, a.port()).sync().channel();
        FileServers.ready(channel.getClass(), a.port());
        channel.closeFuture().sync();
    }

    /** Sends the file a GET names. */
    static final class FileHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Path dir;

        FileHandler(Path dir) {
            this.dir = dir;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (!request.decoderResult().isSuccess()) {
                error(ctx, HttpResponseStatus.BAD_REQUEST, false);
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            if (!HttpMethod.GET.equals(request.method())) {
                error(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
                return;
            }
            String name = new QueryStringDecoder(request.uri()).path().substring(1);
            File file = NAME.matcher(name).matches() ? dir.resolve(name).toFile() : null;
            if (file == null || !file.isFile()) {
                error(ctx, HttpResponseStatus.NOT_FOUND, keepAlive);
                return;
            }
            long length = file.length();
            HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM)
                    .set(HttpHeaderNames.CONTENT_LENGTH, length);
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            ctx.write(response);
            // The region opens the file lazily and closes it when released, once written.
            ctx.write(new DefaultFileRegion(file, 0, length));
            ChannelFuture last = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            if (!keepAlive) {
                last.addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private static void error(ChannelHandlerContext ctx, HttpResponseStatus status, boolean keepAlive) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            if (keepAlive) {
                ctx.writeAndFlush(response);
            } else {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
