/** The starter's end-to-end shop as a Spring Boot 3.5 application on the Boot 3 starter. */
package dev.wharf.compat.boot35;
