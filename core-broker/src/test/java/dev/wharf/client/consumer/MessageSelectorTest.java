package dev.wharf.client.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.impl.Subscriptions;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.Tags;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import org.junit.jupiter.api.Test;

class MessageSelectorTest {

    @Test
    void tagExpressionsBecomeTagAndHashSets() {
        SubscriptionData data = MessageSelector.byTag(" a || b ").subscription("t");
        assertThat(data.expressionType()).isEqualTo(ExpressionType.TAG);
        assertThat(data.tagsSet()).containsExactly("a", "b");
        assertThat(data.codeSet()).containsExactly((int) Tags.hash("a"), (int) Tags.hash("b"));
        assertThat(MessageSelector.byTag(null).expression()).isEqualTo("*");
        assertThat(MessageSelector.byTag("a || *").subscription("t").tagsSet()).as("* wins").isEmpty();
        assertThatThrownBy(() -> MessageSelector.byTag("a || "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty tag");
    }

    @Test
    void theClientRechecksTagsBecauseHashesCollide() {
        // "Aa" and "BB" share String.hashCode, so the broker's hash filter lets both through
        assertThat(Tags.hash("Aa")).isEqualTo(Tags.hash("BB"));
        SubscriptionData data = Subscriptions.byTag("t", "Aa");
        assertThat(Subscriptions.tagMatches(data, new Message("t", "Aa", null, new byte[0]))).isTrue();
        assertThat(Subscriptions.tagMatches(data, new Message("t", "BB", null, new byte[0]))).isFalse();
        assertThat(Subscriptions.tagMatches(data, new Message("t", new byte[0]))).isFalse();
        assertThat(Subscriptions.tagMatches(Subscriptions.byTag("t", "*"), new Message("t", new byte[0]))).isTrue();
    }

    @Test
    void sqlSelectorsAreCheckedBeforeTheyReachABroker() {
        MessageSelector ok = MessageSelector.bySql("color = 'red' AND weight > 10");
        assertThat(ok.type()).isEqualTo(ExpressionType.SQL92);
        assertThat(ok.subscription("t").tagsSet()).isEmpty();
        assertThatThrownBy(() -> MessageSelector.bySql("color = = 'red'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid SQL92 selector").hasMessageContaining("column");
        assertThatThrownBy(() -> MessageSelector.bySql(" ")).hasMessageContaining("empty");
    }
}
