-- Herald counts the characters of a project name and of a URL as their writer does, in Unicode code points
-- (web.TextLength): 200 emoji are a name of 200 characters. H2 measures CHARACTER VARYING in UTF-16 units, where
-- such a character takes two, so its columns are made twice as wide; MariaDB's utf8mb4 columns already count code
-- points, and the same definition again changes nothing there. ${characters:N} and ${changeColumn} are filled in
-- per database by Migrations.
ALTER TABLE projects ${changeColumn} name ${characters:200} NOT NULL;
ALTER TABLE notifications ${changeColumn} image ${characters:2048};
ALTER TABLE notifications ${changeColumn} action_url ${characters:2048};
