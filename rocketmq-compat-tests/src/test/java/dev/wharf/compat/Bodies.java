package dev.wharf.compat;

import java.util.Random;

/** Message bodies for the tests: compressible text of a given size, different per seed. */
final class Bodies {

    private Bodies() {
    }

    static byte[] text(int size, long seed) {
        Random random = new Random(seed);
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) ('a' + random.nextInt(12));
        }
        return body;
    }
}
