package dev.wharf.samples.orderly;

import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The id of this run, carried by every message it sends, so that listeners tell its messages apart from what an
 * earlier run on the same store left; {@code sample.run} when given (the second instance gets the first's).
 */
@Component
class RunId {

    private final String value;

    RunId(@Value("${sample.run:}") String given) {
        this.value = given.isBlank() ? UUID.randomUUID().toString().substring(0, 8) : given;
    }

    String value() {
        return value;
    }
}
