package dev.wharf.common.message;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses message bodies (zlib, {@link MessageSysFlag#COMPRESSED}) without trusting them: inflation stops
 * as soon as the output would pass a limit, so a small body that claims or expands to gigabytes (a "zip bomb")
 * costs at most the limit in memory and the time to produce it. The output grows as it is produced; nothing is
 * sized from the compressed bytes.
 *
 * <p>Each thread keeps one {@link Inflater} and one scratch buffer, reset per body, so checking a body on the
 * send path allocates nothing. Thread-safe.
 */
public final class BodyInflater {

    /** {@link #inflatedLength} result: the body inflates to more than the limit. */
    public static final int TOO_LARGE = -1;
    /** {@link #inflatedLength} result: the body is not a complete zlib stream. */
    public static final int CORRUPT = -2;

    private static final int SCRATCH = 16 * 1024;

    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(State::new);

    /** A thread's inflater and scratch output. */
    private static final class State {
        final Inflater inflater = new Inflater();
        final byte[] scratch = new byte[SCRATCH];
    }

    private BodyInflater() {
    }

    /**
     * The inflated length of a compressed body, counted without keeping the output.
     *
     * @param maxLength the largest inflated length accepted
     * @return the length (at most {@code maxLength}), {@link #TOO_LARGE} or {@link #CORRUPT}
     */
    public static int inflatedLength(byte[] compressed, int maxLength) {
        State state = STATE.get();
        Inflater inflater = state.inflater;
        inflater.reset();
        inflater.setInput(compressed);
        long total = 0;
        try {
            while (!inflater.finished()) {
                int n = inflater.inflate(state.scratch);
                if (n == 0 && stalled(inflater)) {
                    return CORRUPT;
                }
                total += n;
                if (total > maxLength) {
                    return TOO_LARGE;
                }
            }
            return (int) total;
        } catch (DataFormatException e) {
            return CORRUPT;
        } finally {
            inflater.reset();
        }
    }

    /**
     * Inflates a compressed body.
     *
     * @param maxLength the largest inflated length accepted
     * @throws BodyInflateException the body inflates to more than {@code maxLength} bytes (then at most about
     *                              {@code maxLength} bytes were produced) or is not a complete zlib stream
     */
    public static byte[] inflate(byte[] compressed, int maxLength) {
        State state = STATE.get();
        Inflater inflater = state.inflater;
        inflater.reset();
        inflater.setInput(compressed);
        // Grows with the output, never beyond the limit; a typical body is a few times its compressed size.
        ByteArrayOutputStream out = new ByteArrayOutputStream(
                (int) Math.min(maxLength, Math.max(256L, compressed.length * 4L)));
        try {
            while (!inflater.finished()) {
                int n = inflater.inflate(state.scratch);
                if (n == 0 && stalled(inflater)) {
                    throw new BodyInflateException(false, "the compressed body (" + compressed.length
                            + " bytes) is truncated or corrupt");
                }
                if ((long) out.size() + n > maxLength) {
                    throw new BodyInflateException(true, "the compressed body (" + compressed.length
                            + " bytes) inflates to more than " + maxLength + " bytes");
                }
                out.write(state.scratch, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new BodyInflateException(false, "the compressed body (" + compressed.length
                    + " bytes) is corrupt: " + e.getMessage());
        } finally {
            inflater.reset();
        }
    }

    /** No output although room was given: the stream wants input it does not have, or cannot go on. */
    private static boolean stalled(Inflater inflater) {
        return !inflater.finished();
    }

    /** A body that could not be inflated within its limit; {@link #tooLarge()} tells the two causes apart. */
    public static final class BodyInflateException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        private final boolean tooLarge;

        BodyInflateException(boolean tooLarge, String message) {
            super(message);
            this.tooLarge = tooLarge;
        }

        /** Whether the body inflates past the limit (else it is corrupt). */
        public boolean tooLarge() {
            return tooLarge;
        }
    }
}
