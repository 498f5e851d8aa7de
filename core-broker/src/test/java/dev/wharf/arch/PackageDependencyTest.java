package dev.wharf.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.MappedByteBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the dependency rules of the architecture true by construction: arrows only point down. The rules are
 * allow-lists: each room names the rooms it may use, every class must sit in a named room (a new top-level package
 * fails until it is placed), and no rule passes for want of classes to check (a renamed package fails the build
 * rather than silently turning a rule off).
 */
class PackageDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf");
    }

    @Test
    void eachRoomUsesOnlyTheRoomsBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("common").definedBy("dev.wharf.common..")
                .layer("filter").definedBy("dev.wharf.filter..")
                .layer("security").definedBy("dev.wharf.security..")
                .layer("store").definedBy("dev.wharf.store..")
                .layer("protocol").definedBy("dev.wharf.protocol..")
                .layer("remoting").definedBy("dev.wharf.remoting..")
                .layer("controller").definedBy("dev.wharf.controller..")
                .layer("client").definedBy("dev.wharf.client..")
                .layer("namesrv").definedBy("dev.wharf.namesrv..")
                .layer("broker").definedBy("dev.wharf.broker..")
                .layer("metrics").definedBy("dev.wharf.metrics..")
                .layer("embedded").definedBy("dev.wharf.embedded..")
                .layer("server").definedBy("dev.wharf.server..")
                .ensureAllClassesAreContainedInArchitecture()
                .whereLayer("common").mayNotAccessAnyLayer()
                .whereLayer("filter").mayOnlyAccessLayers("common")
                .whereLayer("security").mayOnlyAccessLayers("common")
                .whereLayer("store").mayOnlyAccessLayers("common")
                .whereLayer("protocol").mayOnlyAccessLayers("common")
                .whereLayer("remoting").mayOnlyAccessLayers("common", "protocol", "security")
                .whereLayer("controller").mayOnlyAccessLayers("common", "protocol", "remoting")
                .whereLayer("client").mayOnlyAccessLayers("common", "filter", "security", "protocol", "remoting")
                .whereLayer("namesrv").mayOnlyAccessLayers("common", "protocol", "remoting", "controller")
                .whereLayer("broker").mayOnlyAccessLayers("common", "filter", "security", "store", "protocol",
                        "remoting", "controller")
                // the store, remoting, broker and NameServer report through observers; metrics attach from above
                .whereLayer("metrics").mayOnlyAccessLayers("common", "store", "protocol", "remoting", "namesrv",
                        "broker")
                .whereLayer("embedded").mayOnlyAccessLayers("common", "store", "protocol", "remoting", "controller",
                        "namesrv", "broker", "metrics")
                .whereLayer("server").mayOnlyAccessLayers("common", "filter", "security", "store", "protocol",
                        "remoting", "controller", "client", "namesrv", "broker", "metrics", "embedded")
                .check(classes);
    }

    @Test
    void noCyclesBetweenPackagesAtAnyDepth() {
        // every package is a slice of its own: server <-> server.admin counts as much as store <-> broker
        slices().matching("dev.wharf.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void onlyStoreFileMapsFiles() {
        // mapping, unmapping and the lifetime of a mapping live in one room; the others read through MappedFile
        noClasses().that().resideOutsideOfPackage("dev.wharf.store.file..")
                .should().dependOnClassesThat().areAssignableTo(MappedByteBuffer.class)
                .check(classes);
    }

    @Test
    void theLowerRoomsArePlainJava() {
        noClasses().that().resideInAnyPackage("dev.wharf.common..", "dev.wharf.store..", "dev.wharf.protocol..",
                        "dev.wharf.security..", "dev.wharf.filter..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.micrometer..")
                .check(classes);
    }

    @Test
    void onlyMetricsAndWhatStartsThemUseMicrometer() {
        noClasses().that().resideOutsideOfPackages("dev.wharf.metrics..", "dev.wharf.embedded..",
                        "dev.wharf.server..")
                .should().dependOnClassesThat().resideInAPackage("io.micrometer..")
                .check(classes);
    }

    @Test
    void aBrokerLinksOnlyTheClientSideOfTheController() {
        noClasses().that().resideInAPackage("dev.wharf.controller.client..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.controller", "dev.wharf.controller.state..", "dev.wharf.controller.elect..",
                        "org.apache.ratis..")
                .check(classes);
    }
}
