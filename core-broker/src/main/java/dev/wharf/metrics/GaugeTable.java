package dev.wharf.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A gauge per row of a table whose rows come and go (group/topic pairs, groups, replicas), updated in place from
 * a sampler: a row's gauge is registered when the row first appears and removed when it disappears, so a scrape of
 * a steady cluster registers nothing (re-registering every row on every scrape costs seconds with 10,000 rows).
 * Used by the one scrape thread only.
 */
final class GaugeTable {

    /** The value of one row, read by its gauge. */
    private static final class Cell {
        volatile double value;
    }

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final String baseUnit;
    private final Map<Tags, Cell> cells = new HashMap<>();
    private final Map<Tags, Gauge> gauges = new HashMap<>();

    GaugeTable(MeterRegistry registry, String name, String description, String baseUnit) {
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.baseUnit = baseUnit;
    }

    /** Makes the rows exactly {@code values}: new rows get a gauge, gone rows lose theirs, the rest are updated. */
    void update(Map<Tags, Double> values) {
        for (Map.Entry<Tags, Double> e : values.entrySet()) {
            Cell cell = cells.get(e.getKey());
            if (cell == null) {
                cell = new Cell();
                cells.put(e.getKey(), cell);
                gauges.put(e.getKey(), Gauge.builder(name, cell, c -> c.value).description(description)
                        .baseUnit(baseUnit).tags(e.getKey()).strongReference(true).register(registry));
            }
            cell.value = e.getValue();
        }
        for (Iterator<Map.Entry<Tags, Gauge>> it = gauges.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Tags, Gauge> e = it.next();
            if (!values.containsKey(e.getKey())) {
                registry.remove(e.getValue());
                cells.remove(e.getKey());
                it.remove();
            }
        }
    }

    int size() {
        return gauges.size();
    }
}
