package dev.wharf.spring.boot.autoconfigure;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Stops a Spring Boot 3 application at start-up, with the fix, when its Jackson annotations are too old for Wharf.
 * Wharf's Jackson 3 reads Jackson 2's annotation artifact ({@code com.fasterxml.jackson.core:jackson-annotations}),
 * at 2.21; Boot 3.5's dependency management pins it at 2.19, and the first JSON header would otherwise fail deep in
 * the client with {@code NoClassDefFoundError: com/fasterxml/jackson/annotation/JsonSerializeAs}.
 */
public final class JacksonAnnotationsCheck implements EnvironmentPostProcessor {

    /** A type that the 2.20 annotations added and Jackson 3 needs; 2.19 and older lack it. */
    static final String PROBE = "com.fasterxml.jackson.annotation.JsonSerializeAs";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        check(application.getClassLoader() != null ? application.getClassLoader()
                : JacksonAnnotationsCheck.class.getClassLoader());
    }

    static void check(ClassLoader classLoader) {
        try {
            Class.forName(PROBE, false, classLoader);
        } catch (ClassNotFoundException e) {
            Package annotations = com.fasterxml.jackson.annotation.JsonProperty.class.getPackage();
            String found = annotations.getImplementationVersion() != null
                    ? annotations.getImplementationVersion() : "an older version";
            throw new IllegalStateException("Wharf needs com.fasterxml.jackson.core:jackson-annotations 2.21 or"
                    + " newer, and this application has " + found + " (Spring Boot 3.5's dependency management pins"
                    + " 2.19). Add it to your build's dependency management: in Maven, <dependencyManagement> with"
                    + " com.fasterxml.jackson.core:jackson-annotations:2.21; in Gradle,"
                    + " implementation(platform(\"com.fasterxml.jackson.core:jackson-annotations:2.21\")) or a"
                    + " constraint. Newer annotations serve Boot 3.5's Jackson 2.19 unchanged.");
        }
    }
}
