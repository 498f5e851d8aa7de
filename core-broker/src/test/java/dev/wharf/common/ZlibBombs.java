package dev.wharf.common;

import java.io.ByteArrayOutputStream;
import java.util.zip.Adler32;
import java.util.zip.Deflater;

/**
 * Builds valid zlib streams of many zero bytes in milliseconds, without compressing them all: one megabyte of
 * zeros is compressed twice with a sync flush; the second flush's output only refers back to zeros, so it can be
 * repeated to stand for every further megabyte. A final empty stored block and the Adler-32 of the whole close
 * the stream, so it inflates (and checks) like any other.
 */
public final class ZlibBombs {

    private static final int MIB = 1024 * 1024;

    private ZlibBombs() {
    }

    /** A zlib stream that inflates to {@code mebibytes} MiB of zero bytes (at least 2). */
    public static byte[] zeros(int mebibytes) {
        if (mebibytes < 2) {
            throw new IllegalArgumentException("at least 2 MiB, got " + mebibytes);
        }
        byte[] megabyte = new byte[MIB];
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        byte[] first;
        byte[] repeated;
        try {
            first = flushed(deflater, megabyte);
            repeated = flushed(deflater, megabyte);
        } finally {
            deflater.end();
        }
        Adler32 adler = new Adler32();
        for (int i = 0; i < mebibytes; i++) {
            adler.update(megabyte);
        }
        long check = adler.getValue();
        ByteArrayOutputStream out = new ByteArrayOutputStream(first.length + repeated.length * mebibytes + 9);
        out.writeBytes(first);
        for (int i = 1; i < mebibytes; i++) {
            out.writeBytes(repeated);
        }
        // final stored block of length 0 (BFINAL=1, BTYPE=00, LEN=0, NLEN=0xFFFF), then the Adler-32, big-endian
        out.writeBytes(new byte[] {1, 0, 0, (byte) 0xFF, (byte) 0xFF});
        out.writeBytes(new byte[] {(byte) (check >>> 24), (byte) (check >>> 16), (byte) (check >>> 8), (byte) check});
        return out.toByteArray();
    }

    private static byte[] flushed(Deflater deflater, byte[] input) {
        deflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        int n;
        do {
            n = deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
            out.write(buffer, 0, n);
        } while (n == buffer.length || !deflater.needsInput());
        return out.toByteArray();
    }
}
