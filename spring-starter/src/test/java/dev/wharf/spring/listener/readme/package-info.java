/** The README example of the RocketMQ-style Spring API, compiled and run by {@code ReadmeExampleTest}. */
package dev.wharf.spring.listener.readme;
