package dev.wharf.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The Boot 3 starter's start-up check of the Jackson annotations that Wharf's Jackson 3 needs. */
class JacksonAnnotationsCheckTest {

    @Test
    void theAnnotationsThisApplicationPinsPass() {
        assertThatCode(() -> JacksonAnnotationsCheck.check(getClass().getClassLoader())).doesNotThrowAnyException();
    }

    @Test
    void boot35sOwnAnnotationsStopTheApplicationWithTheFix() {
        ClassLoader asWithBoot35sPin = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(JacksonAnnotationsCheck.PROBE)) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        assertThatThrownBy(() -> JacksonAnnotationsCheck.check(asWithBoot35sPin))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("jackson-annotations 2.21 or newer")
                .hasMessageContaining("com.fasterxml.jackson.core:jackson-annotations:2.21");
    }
}
