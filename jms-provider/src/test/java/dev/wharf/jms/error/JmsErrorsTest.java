package dev.wharf.jms.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.protocol.ResponseCode;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Checked/unchecked twins, broker answers and generic failures mapped to the exceptions the spec names. */
class JmsErrorsTest {

    private static final Map<JMSException, Class<? extends JMSRuntimeException>> TWINS = Map.ofEntries(
            Map.entry(new IllegalStateException("m", "c"), IllegalStateRuntimeException.class),
            Map.entry(new InvalidClientIDException("m", "c"), InvalidClientIDRuntimeException.class),
            Map.entry(new InvalidDestinationException("m", "c"), InvalidDestinationRuntimeException.class),
            Map.entry(new InvalidSelectorException("m", "c"), InvalidSelectorRuntimeException.class),
            Map.entry(new JMSSecurityException("m", "c"), JMSSecurityRuntimeException.class),
            Map.entry(new MessageFormatException("m", "c"), MessageFormatRuntimeException.class),
            Map.entry(new MessageNotWriteableException("m", "c"), MessageNotWriteableRuntimeException.class),
            Map.entry(new ResourceAllocationException("m", "c"), ResourceAllocationRuntimeException.class),
            Map.entry(new TransactionInProgressException("m", "c"), TransactionInProgressRuntimeException.class),
            Map.entry(new TransactionRolledBackException("m", "c"), TransactionRolledBackRuntimeException.class),
            Map.entry(new MessageNotReadableException("m", "c"), JMSRuntimeException.class),
            Map.entry(new MessageEOFException("m", "c"), JMSRuntimeException.class),
            Map.entry(new JMSException("m", "c"), JMSRuntimeException.class));

    @Test
    void everyCheckedExceptionHasItsUncheckedTwin() {
        TWINS.forEach((checked, twin) -> {
            JMSRuntimeException r = JmsErrors.toRuntime(checked);
            assertThat(r).as(checked.getClass().getSimpleName()).isExactlyInstanceOf(twin);
            assertThat(r.getMessage()).isEqualTo("m");
            assertThat(r.getErrorCode()).isEqualTo("c");
            assertThat(r.getCause()).isSameAs(checked);
            assertThat(JmsErrors.toChecked(r)).isSameAs(checked);
        });
    }

    @Test
    void uncheckedExceptionsBecomeTheirCheckedTwins() {
        IOException io = new IOException("disk");
        Map<JMSRuntimeException, Class<? extends JMSException>> twins = Map.of(
                new IllegalStateRuntimeException("m", "c", io), IllegalStateException.class,
                new InvalidClientIDRuntimeException("m", "c", io), InvalidClientIDException.class,
                new InvalidDestinationRuntimeException("m", "c", io), InvalidDestinationException.class,
                new InvalidSelectorRuntimeException("m", "c", io), InvalidSelectorException.class,
                new JMSSecurityRuntimeException("m", "c", io), JMSSecurityException.class,
                new MessageFormatRuntimeException("m", "c", io), MessageFormatException.class,
                new MessageNotWriteableRuntimeException("m", "c", io), MessageNotWriteableException.class,
                new ResourceAllocationRuntimeException("m", "c", io), ResourceAllocationException.class,
                new TransactionInProgressRuntimeException("m", "c", io), TransactionInProgressException.class,
                new TransactionRolledBackRuntimeException("m", "c", io), TransactionRolledBackException.class);
        twins.forEach((unchecked, twin) -> {
            JMSException e = JmsErrors.toChecked(unchecked);
            assertThat(e).isExactlyInstanceOf(twin);
            assertThat(e.getMessage()).isEqualTo("m");
            assertThat(e.getErrorCode()).isEqualTo("c");
            assertThat(e.getCause()).isSameAs(io);
            assertThat(e.getLinkedException()).isSameAs(io);
        });
        JMSException plain = JmsErrors.toChecked(new JMSRuntimeException("m"));
        assertThat(plain).isExactlyInstanceOf(JMSException.class);
        assertThat(plain.getCause()).isInstanceOf(JMSRuntimeException.class);
    }

    @Test
    void brokerAnswersMapToTheSpecifiedSubclasses() {
        Map<Integer, Class<? extends JMSException>> expected = Map.of(
                ResponseCode.NO_PERMISSION, JMSSecurityException.class,
                ResponseCode.TOPIC_NOT_EXIST, InvalidDestinationException.class,
                ResponseCode.SUBSCRIPTION_NOT_EXIST, InvalidDestinationException.class,
                ResponseCode.SUBSCRIPTION_PARSE_FAILED, InvalidSelectorException.class,
                ResponseCode.MESSAGE_ILLEGAL, MessageFormatException.class,
                ResponseCode.SYSTEM_BUSY, ResourceAllocationException.class,
                ResponseCode.FLUSH_DISK_TIMEOUT, JMSException.class,
                ResponseCode.SERVICE_NOT_AVAILABLE, JMSException.class,
                ResponseCode.REQUEST_HEADER_INVALID, JMSException.class,
                ResponseCode.SYSTEM_ERROR, JMSException.class);
        expected.forEach((code, type) -> {
            JMSException e = JmsErrors.fromResponse(code, " the remark ", "send to queue orders");
            assertThat(e).as(ResponseCode.NAMES.name(code)).isExactlyInstanceOf(type);
            assertThat(e.getMessage()).startsWith("The broker refused to send to queue orders: the remark")
                    .endsWith(".");
            assertThat(e.getErrorCode()).isEqualTo(ResponseCode.NAMES.name(code));
        });
        assertThat(JmsErrors.fromResponse(ResponseCode.FLUSH_DISK_TIMEOUT, null, "send").getMessage())
                .contains("may or may not have been stored");
        assertThat(JmsErrors.fromResponse(999, "", "pull").getMessage()).contains("UNKNOWN(999)");
    }

    @Test
    void genericFailuresAreTranslatedWithTheOperationAndTheCause() {
        JMSException own = new InvalidDestinationException("x");
        assertThat(JmsErrors.translate("send", own)).isSameAs(own);
        assertThat(JmsErrors.translate("send", new ExecutionException(own))).isSameAs(own);
        assertThat(JmsErrors.translate("send", new CompletionException(new MessageFormatRuntimeException("m"))))
                .isExactlyInstanceOf(MessageFormatException.class);
        TimeoutException timeout = new TimeoutException();
        JMSException t = JmsErrors.translate("send to queue q", timeout);
        assertThat(t.getMessage()).contains("Timed out while trying to send to queue q", "raise the timeout");
        assertThat(t.getCause()).isSameAs(timeout);
        assertThat(t.getLinkedException()).isSameAs(timeout);
        JMSException io = JmsErrors.translate("connect", new ConnectException("Connection refused"));
        assertThat(io.getMessage()).contains("Connection refused", "check the broker address");
        JMSException selector = JmsErrors.translate("create a consumer",
                new dev.wharf.filter.InvalidSelectorException("a > > 3", 5, "expected a value but found '>'"));
        assertThat(selector).isExactlyInstanceOf(InvalidSelectorException.class).hasMessageContaining("column 5");
        JMSException other = JmsErrors.translate("commit", new NullPointerException());
        assertThat(other.getMessage()).isEqualTo("Could not commit: NullPointerException");
    }

    @Test
    void interruptionKeepsTheFlag() {
        try {
            JMSException e = JmsErrors.translate("receive", new InterruptedException());
            assertThat(e.getMessage()).contains("Interrupted while trying to receive");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theSimplifiedApiRunsClassicCallsUnchecked() {
        assertThat(JmsErrors.unchecked(() -> 5)).isEqualTo(5);
        assertThatThrownBy(() -> JmsErrors.unchecked(() -> {
            throw new InvalidDestinationException("bad");
        })).isExactlyInstanceOf(InvalidDestinationRuntimeException.class).hasMessage("bad");
        assertThatThrownBy(() -> JmsErrors.uncheckedRun(() -> {
            throw new JMSException("x");
        })).isExactlyInstanceOf(JMSRuntimeException.class);
        assertThat(JmsErrors.closed("session")).isInstanceOf(IllegalStateException.class)
                .hasMessage("The session is closed; create a new one to continue.");
        JMSException withCause = JmsErrors.withCause(new JMSException("a"), new Error("boom"));
        assertThat(withCause.getCause()).hasMessage("boom");
        assertThat(withCause.getLinkedException()).isInstanceOf(Exception.class);
    }
}
