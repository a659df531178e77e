package dev.weft.bench.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;

import java.util.List;

/**
 * The first handler of a connection: reads until it can tell HTTP/2 with prior knowledge (the client connection
 * preface) from HTTP/1.1, then replaces itself with that protocol's handlers, handing on what it has read. After
 * the first bytes it is gone, so an HTTP/1.1 connection runs exactly the pipeline it would without h2c.
 */
final class ProtocolDetector extends ByteToMessageDecoder {

    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
        boolean prefix = ByteBufUtil.equals(in, in.readerIndex(), PREFACE, PREFACE.readerIndex(), n);
        if (prefix && n < PREFACE.readableBytes()) {
            return; // could still be either: wait for more
        }
        ChannelPipeline pipeline = ctx.pipeline();
        if (prefix) {
            pipeline.addAfter(ctx.name(), null, Http2FrameCodecBuilder.forServer().build());
            pipeline.addLast(new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                @Override
                protected void initChannel(Http2StreamChannel stream) {
                    stream.pipeline().addLast(new Http2Handler());
                }
            }));
        } else {
            pipeline.addAfter(ctx.name(), null, new NettyServer.Handler());
            pipeline.addAfter(ctx.name(), null, new HttpServerCodec());
        }
        pipeline.remove(this); // hands what it holds to the handler after it
    }
}
