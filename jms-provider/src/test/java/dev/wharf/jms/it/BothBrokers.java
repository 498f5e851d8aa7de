package dev.wharf.jms.it;

import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * The two ways a test reaches Wharf, for tests that must hold against both: an in-JVM {@code vm://} broker and a
 * standalone NameServer plus broker on loopback ({@code wharf://127.0.0.1:port}). A test class starts one in
 * {@code @BeforeAll}, feeds {@link #urls()} to a {@code @ParameterizedTest} and closes it in {@code @AfterAll}.
 */
public final class BothBrokers implements AutoCloseable {

    private final VmNames vm;
    private final String vmUrl;
    private final TestWharf standalone;

    public BothBrokers(String prefix, Path store) throws IOException {
        this.vm = new VmNames(prefix);
        this.vmUrl = vm.url("?defaultTopicQueueNums=2");
        this.standalone = TestWharf.loopback(store);
    }

    /** Both URLs, named "vm" and "standalone" in the test report. */
    public Stream<Named<String>> urls() {
        return Stream.of(Named.of("vm", vmUrl), Named.of("standalone", standalone.url()));
    }

    @Override
    public void close() {
        vm.stopAll();
        standalone.close();
    }
}
