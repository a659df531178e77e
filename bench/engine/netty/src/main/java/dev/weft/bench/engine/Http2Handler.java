package dev.weft.bench.engine;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * One HTTP/2 stream of {@link NettyServer}: answers {@code GET /plaintext} (404 for anything else) when the
 * request's headers arrive, with a HEADERS and a DATA frame, flushed once per read as the HTTP/1.1 handler is.
 */
final class Http2Handler extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame frame) {
                respond(ctx, frame.headers());
            }
            // DATA frames (none for a GET) are dropped.
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

    private static void respond(ChannelHandlerContext ctx, Http2Headers request) {
        boolean found = "/plaintext".contentEquals(request.path()) && "GET".contentEquals(request.method());
        byte[] body = found ? Report.HELLO : new byte[0];
        Http2Headers headers = new DefaultHttp2Headers().status(found ? "200" : "404");
        headers.set("content-type", "text/plain");
        headers.setInt("content-length", body.length);
        ctx.write(new DefaultHttp2HeadersFrame(headers));
        ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
    }
}
