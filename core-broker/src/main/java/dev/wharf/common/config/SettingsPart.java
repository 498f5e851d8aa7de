package dev.wharf.common.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public no-argument accessor of a config bean that returns one of its parts: a smaller config bean owned by
 * a subsystem. {@link BeanBinder} binds, lists and reads the part's keys as if the holder had them, so the flat key
 * names of a config file stay as they are while each subsystem keeps (and validates) its own settings.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SettingsPart {
}
