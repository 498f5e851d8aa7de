package dev.wharf.broker.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.Tags;
import dev.wharf.filter.InvalidSelectorException;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import org.junit.jupiter.api.Test;

class PropertyTypesTest {

    @Test
    void declaredTypesAreFoundByExactName() {
        String types = "price:I,priceX:D,flag:Z,a:J";
        assertThat(PropertyTypes.typeOf(types, "price")).isEqualTo('I');
        assertThat(PropertyTypes.typeOf(types, "priceX")).isEqualTo('D');
        assertThat(PropertyTypes.typeOf(types, "a")).isEqualTo('J');
        assertThat(PropertyTypes.typeOf(types, "pric")).isEqualTo((char) 0);
        assertThat(PropertyTypes.typeOf(types, "other")).isEqualTo((char) 0);
        assertThat(PropertyTypes.typeOf(null, "price")).isEqualTo((char) 0);
    }

    @Test
    void valuesConvertToTheirTypesOrBecomeAbsent() {
        assertThat(PropertyTypes.convert('I', "42")).isEqualTo(42);
        assertThat(PropertyTypes.convert('J', "42")).isEqualTo(42L);
        assertThat(PropertyTypes.convert('S', "7")).isEqualTo((short) 7);
        assertThat(PropertyTypes.convert('B', "7")).isEqualTo((byte) 7);
        assertThat(PropertyTypes.convert('F', "1.5")).isEqualTo(1.5f);
        assertThat(PropertyTypes.convert('D', "1.5")).isEqualTo(1.5d);
        assertThat(PropertyTypes.convert('Z', "TRUE")).isEqualTo(true);
        assertThat(PropertyTypes.convert('Z', "yes")).isNull();
        assertThat(PropertyTypes.convert('I', "x")).isNull();
        assertThat(PropertyTypes.convert('?', "x")).isEqualTo("x");
    }

    @Test
    void tagExpressionsAndTheCacheFollowTheGroupsExpression() {
        CompiledSubscription all = CompiledSubscription.tags(" * ");
        assertThat(all.matchesAll()).isTrue();
        CompiledSubscription ab = CompiledSubscription.tags("a || b");
        assertThat(ab.matchesTagsCode(Tags.hash("a"))).isTrue();
        assertThat(ab.matchesTagsCode(Tags.hash("c"))).isFalse();
        assertThat(CompiledSubscription.tags("a || *").matchesAll()).isTrue();

        SubscriptionCache cache = new SubscriptionCache();
        CompiledSubscription first = cache.get("g", "T", ExpressionType.SQL92, "x > 1");
        assertThat(cache.get("g", "T", ExpressionType.SQL92, "x > 1")).isSameAs(first);
        assertThat(cache.get("g", "T", ExpressionType.SQL92, "x > 2")).isNotSameAs(first);
        assertThat(cache.get("g", "T", ExpressionType.TAG, "")).isSameAs(cache.get("g", "T", ExpressionType.TAG, "*"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> cache.get("g", "T", ExpressionType.SQL92, "x >"))
                .isInstanceOf(InvalidSelectorException.class);
        cache.removeTopic("T");
        assertThat(cache.size()).isZero();
    }
}
