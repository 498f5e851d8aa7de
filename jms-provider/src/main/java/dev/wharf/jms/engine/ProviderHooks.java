package dev.wharf.jms.engine;

import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import java.util.Objects;

/**
 * The factory's hooks a connection passes on: who hears of transactions starting and ending (may be null) and who
 * answers check-backs.
 */
public record ProviderHooks(TransactionLifecycleListener lifecycle, TransactionChecker checker) {

    public ProviderHooks {
        Objects.requireNonNull(checker, "checker");
    }
}
