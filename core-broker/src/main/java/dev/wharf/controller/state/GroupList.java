package dev.wharf.controller.state;

import java.util.List;

/** The answer to a {@link CommandLayout.Query}. */
public record GroupList(List<GroupRecord> groups) {
}
