package dev.wharf.filter;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The selector engine is shared by broker, client and JMS provider, so it must stay pure JDK. */
class FilterDependencyTest {

    @Test
    void dependsOnlyOnTheJdk() {
        JavaClasses filter = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.filter");

        classes().should().onlyDependOnClassesThat().resideInAnyPackage("dev.wharf.filter", "java..")
                .check(filter);
    }
}
