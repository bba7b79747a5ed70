package io.minibroker.benchmarks.scale;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle-connections scale case of broker-perf.sh: opens N connections to a broker, each of which makes one
 * ApiVersions v0 round trip (so the broker holds a real client connection, not a bare socket), prints
 * {@code ready} and holds them, silent, for the given seconds; the script samples the broker's CPU and RSS
 * meanwhile.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.minibroker.benchmarks.scale.IdleConnections HOST PORT N SECONDS}
 */
public final class IdleConnections {
    private static final short API_VERSIONS = 18;

    private IdleConnections() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        InetSocketAddress broker = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        long holdMillis = Long.parseLong(args[3]) * 1000;
        List<SocketChannel> open = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(broker);
                open.add(channel);
                roundTrip(channel, i);
            }
            System.out.println("ready");
            System.out.flush();
            Thread.sleep(holdMillis); // the measured idle window: nothing is sent
        } finally {
            for (SocketChannel channel : open) {
                channel.close();
            }
        }
    }

    /** ApiVersions v0 with request header v1 and a null client id; the answer is read and dropped. */
    private static void roundTrip(SocketChannel channel, int correlationId) throws IOException {
        ByteBuffer request = ByteBuffer.allocate(4 + 10);
        request.putInt(10).putShort(API_VERSIONS).putShort((short) 0).putInt(correlationId).putShort((short) -1);
        request.flip();
        Wire.write(channel, request);
        Wire.readFully(channel, Wire.readFully(channel, 4).getInt(0));
    }
}
