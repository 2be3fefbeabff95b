"""The hand-kept gazetteer behind :mod:`leadwire.search.understand.geo`.

pycountry supplies every country's English names and Chinese (zh_CN) names; everything here is
what it lacks: everyday aliases, demonyms, business cities, states and provinces, regions, and
the words that only count as places when written with a capital letter.

Tables map an ISO 3166-1 alpha-2 code to a ``|``-separated list of names, so one line holds one
country. Names are written as people write them; the builder folds case and diacritics.
"""

from __future__ import annotations

# Everyday English names pycountry does not carry.
COUNTRY_ALIASES: dict[str, str] = {
    "US": "US|USA|U.S.|U.S.A.|United States of America|America|the States",
    "GB": "UK|U.K.|Britain|Great Britain|England|Scotland|Wales|Northern Ireland",
    "AE": "UAE|U.A.E.|Emirates",
    "TR": "Turkey|Turkiye",
    "KR": "Korea|Republic of Korea|S. Korea",
    "KP": "DPRK|N. Korea",
    "RU": "Russia",
    "CZ": "Czech Republic",
    "NL": "Holland|The Netherlands",
    "CN": "Mainland China|PRC|P.R.C.|People's Republic of China",
    "TW": "Taiwan|Republic of China",
    "HK": "Hong Kong SAR|Hongkong",
    "MO": "Macau|Macao SAR",
    "VN": "Vietnam|Viet Nam",
    "LA": "Laos",
    "MM": "Burma",
    "CI": "Ivory Coast|Cote d'Ivoire",
    "CV": "Cape Verde",
    "SZ": "Swaziland",
    "TL": "East Timor",
    "MK": "Macedonia",
    "CD": "DRC|DR Congo|Congo-Kinshasa|Democratic Republic of Congo",
    "CG": "Congo-Brazzaville|Republic of the Congo",
    "BA": "Bosnia",
    "TT": "Trinidad",
    "SA": "KSA|Saudi",
    "VA": "Vatican|Vatican City",
    "PS": "Palestine",
    "BN": "Brunei",
    "BS": "The Bahamas",
    "GM": "The Gambia",
    "KN": "St Kitts and Nevis|St Kitts",
    "FM": "Micronesia",
    "TC": "Turks and Caicos",
    "XK": "Kosovo",
}

# Adjectives and nouns for a country's people and things: "German suppliers", "Swiss banks".
# "English" is left out on purpose: it names a language far more often than a country.
DEMONYMS: dict[str, str] = {
    "AF": "Afghan",
    "AL": "Albanian",
    "DZ": "Algerian",
    "AD": "Andorran",
    "AO": "Angolan",
    "AR": "Argentine|Argentinian|Argentinean",
    "AM": "Armenian",
    "AU": "Australian|Aussie",
    "AT": "Austrian",
    "AZ": "Azerbaijani|Azeri",
    "BS": "Bahamian",
    "BH": "Bahraini",
    "BD": "Bangladeshi",
    "BB": "Barbadian",
    "BY": "Belarusian",
    "BE": "Belgian|Flemish|Walloon",
    "BZ": "Belizean",
    "BJ": "Beninese",
    "BM": "Bermudian",
    "BT": "Bhutanese",
    "BO": "Bolivian",
    "BA": "Bosnian",
    "BW": "Botswanan",
    "BR": "Brazilian",
    "BN": "Bruneian",
    "BG": "Bulgarian",
    "BF": "Burkinabe",
    "BI": "Burundian",
    "KH": "Cambodian",
    "CM": "Cameroonian",
    "CA": "Canadian|Quebecois",
    "CV": "Cape Verdean",
    "KY": "Caymanian",
    "TD": "Chadian",
    "CL": "Chilean",
    "CN": "Chinese|Mainland Chinese",
    "CO": "Colombian",
    "KM": "Comoran",
    "CR": "Costa Rican",
    "CI": "Ivorian",
    "HR": "Croatian|Croat",
    "CU": "Cuban",
    "CY": "Cypriot",
    "CZ": "Czech",
    "DK": "Danish|Dane",
    "DJ": "Djiboutian",
    "DO": "Dominican",
    "EC": "Ecuadorian|Ecuadorean",
    "EG": "Egyptian",
    "SV": "Salvadoran|Salvadorian",
    "ER": "Eritrean",
    "EE": "Estonian",
    "ET": "Ethiopian",
    "FJ": "Fijian",
    "FI": "Finnish|Finn",
    "FR": "French",
    "GA": "Gabonese",
    "GM": "Gambian",
    "GE": "Georgian",
    "DE": "German|Bavarian",
    "GH": "Ghanaian",
    "GR": "Greek",
    "GL": "Greenlandic",
    "GT": "Guatemalan",
    "GN": "Guinean",
    "GY": "Guyanese",
    "HT": "Haitian",
    "HN": "Honduran",
    "HK": "Hongkonger",
    "HU": "Hungarian",
    "IS": "Icelandic|Icelander",
    "IN": "Indian",
    "ID": "Indonesian",
    "IR": "Iranian|Persian",
    "IQ": "Iraqi",
    "IE": "Irish",
    "IL": "Israeli",
    "IT": "Italian",
    "JM": "Jamaican",
    "JP": "Japanese",
    "JO": "Jordanian",
    "KZ": "Kazakh|Kazakhstani",
    "KE": "Kenyan",
    "KW": "Kuwaiti",
    "KG": "Kyrgyz",
    "LA": "Lao|Laotian",
    "LV": "Latvian",
    "LB": "Lebanese",
    "LR": "Liberian",
    "LY": "Libyan",
    "LI": "Liechtensteiner",
    "LT": "Lithuanian",
    "LU": "Luxembourgish|Luxembourger",
    "MO": "Macanese",
    "MG": "Malagasy",
    "MW": "Malawian",
    "MY": "Malaysian",
    "MV": "Maldivian",
    "ML": "Malian",
    "MT": "Maltese",
    "MR": "Mauritanian",
    "MU": "Mauritian",
    "MX": "Mexican",
    "MD": "Moldovan",
    "MC": "Monegasque",
    "MN": "Mongolian",
    "ME": "Montenegrin",
    "MA": "Moroccan",
    "MZ": "Mozambican",
    "MM": "Burmese",
    "NA": "Namibian",
    "NP": "Nepali|Nepalese",
    "NL": "Dutch",
    "NZ": "New Zealander|Kiwi",
    "NI": "Nicaraguan",
    "NE": "Nigerien",
    "NG": "Nigerian",
    "KP": "North Korean",
    "MK": "Macedonian|North Macedonian",
    "NO": "Norwegian",
    "OM": "Omani",
    "PK": "Pakistani",
    "PS": "Palestinian",
    "PA": "Panamanian",
    "PG": "Papua New Guinean",
    "PY": "Paraguayan",
    "PE": "Peruvian",
    "PH": "Filipino|Philippine",
    "PL": "Polish|Pole",
    "PT": "Portuguese",
    "PR": "Puerto Rican",
    "QA": "Qatari",
    "RO": "Romanian",
    "RU": "Russian",
    "RW": "Rwandan",
    "SA": "Saudi Arabian",
    "SN": "Senegalese",
    "RS": "Serbian|Serb",
    "SC": "Seychellois",
    "SL": "Sierra Leonean",
    "SG": "Singaporean",
    "SK": "Slovak|Slovakian",
    "SI": "Slovenian|Slovene",
    "SO": "Somali|Somalian",
    "ZA": "South African",
    "KR": "South Korean|Korean",
    "SS": "South Sudanese",
    "ES": "Spanish|Spaniard|Catalan",
    "LK": "Sri Lankan",
    "SD": "Sudanese",
    "SR": "Surinamese",
    "SE": "Swedish|Swede",
    "CH": "Swiss",
    "SY": "Syrian",
    "TW": "Taiwanese",
    "TJ": "Tajik",
    "TZ": "Tanzanian",
    "TH": "Thai",
    "TG": "Togolese",
    "TO": "Tongan",
    "TT": "Trinidadian",
    "TN": "Tunisian",
    "TR": "Turkish|Turk",
    "TM": "Turkmen",
    "UG": "Ugandan",
    "UA": "Ukrainian",
    "AE": "Emirati",
    "GB": "British|Brit|Scottish|Scot|Welsh|Northern Irish",
    "US": "American|Californian|Texan",
    "UY": "Uruguayan",
    "UZ": "Uzbek",
    "VE": "Venezuelan",
    "VN": "Vietnamese",
    "WS": "Samoan",
    "YE": "Yemeni",
    "ZM": "Zambian",
    "ZW": "Zimbabwean",
}
# One demonym, two countries.
SHARED_DEMONYMS: dict[str, str] = {"Congolese": "CD CG"}

# States, provinces and regions inside one country. Two-letter postal codes are left out:
# "IN", "OR", "ME", "OK" are English words and "CA", "DE", "IL" are also countries.
STATES: dict[str, str] = {
    "US": (
        "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|"
        "Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
        "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
        "New Mexico|New York|New York State|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|"
        "Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|"
        "Virginia|Washington|Washington State|West Virginia|Wisconsin|Wyoming|District of Columbia|"
        "New England|Midwest|Pacific Northwest|Gulf Coast|Southern California|Northern California|SoCal|"
        "NorCal"
    ),
    "CA": (
        "Ontario|Quebec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|"
        "Newfoundland|Newfoundland and Labrador|Prince Edward Island|Yukon|Nunavut|"
        "Northwest Territories"
    ),
    "AU": (
        "New South Wales|Victoria|Queensland|Western Australia|South Australia|Tasmania|"
        "Northern Territory|Australian Capital Territory"
    ),
    "DE": (
        "Bavaria|Bayern|Baden-Wurttemberg|Baden-Württemberg|North Rhine-Westphalia|"
        "Nordrhein-Westfalen|NRW|Hesse|Hessen|Saxony|Sachsen|Lower Saxony|Niedersachsen|"
        "Rhineland-Palatinate|Rheinland-Pfalz|Thuringia|Brandenburg|Schleswig-Holstein|Saarland|"
        "Mecklenburg-Vorpommern|Saxony-Anhalt|Ruhr|Ruhr Area|Ruhrgebiet"
    ),
    "ES": (
        "Catalonia|Cataluña|Catalunya|Andalusia|Andalucía|Basque Country|Galicia|Navarre|Asturias|"
        "Aragon|Castile and Leon|Castilla-La Mancha|Canary Islands|Balearic Islands|Murcia|Cantabria"
    ),
    "IT": (
        "Lombardy|Lombardia|Piedmont|Piemonte|Tuscany|Toscana|Veneto|Emilia-Romagna|Lazio|Sicily|"
        "Sardinia|Campania|Liguria|Apulia|Puglia|Calabria|Trentino|South Tyrol|Friuli"
    ),
    "FR": (
        "Ile-de-France|Île-de-France|Provence|Normandy|Brittany|Alsace|Auvergne-Rhône-Alpes|"
        "Rhône-Alpes|Occitanie|Occitania|Hauts-de-France|Nouvelle-Aquitaine|Grand Est|Burgundy|"
        "Corsica|Pays de la Loire|Côte d'Azur|French Riviera"
    ),
    "NL": (
        "North Holland|Noord-Holland|South Holland|Zuid-Holland|North Brabant|Noord-Brabant|Gelderland|"
        "Limburg"
    ),
    "BE": "Flanders|Wallonia",
    "CH": "Vaud|Ticino|Valais|Aargau|Graubünden",
    "AT": "Tyrol|Tirol|Styria|Upper Austria|Lower Austria|Carinthia",
    "JP": (
        "Hokkaido|Aomori|Iwate|Miyagi|Akita|Yamagata|Fukushima|Ibaraki|Tochigi|Gunma|Saitama|Chiba|"
        "Kanagawa|Niigata|Toyama|Ishikawa|Fukui|Yamanashi|Nagano|Gifu|Shizuoka|Aichi|Mie|Shiga|"
        "Hyogo|Hyōgo|Nara|Wakayama|Tottori|Shimane|Okayama|Yamaguchi|Tokushima|Kagawa|Ehime|Saga|"
        "Kumamoto|Oita|Ōita|Miyazaki|Kagoshima|Okinawa|Kanto|Kansai|Kyushu|Shikoku"
    ),
    "CN": (
        "Guangdong|Zhejiang|Jiangsu|Shandong|Fujian|Sichuan|Hubei|Hunan|Henan|Hebei|Anhui|Jiangxi|"
        "Liaoning|Jilin|Heilongjiang|Shanxi|Shaanxi|Yunnan|Guizhou|Guangxi|Hainan|Gansu|"
        "Inner Mongolia|Xinjiang|Tibet|Ningxia|Qinghai|Pearl River Delta|Yangtze River Delta"
    ),
    "IN": (
        "Maharashtra|Karnataka|Tamil Nadu|Telangana|Gujarat|Kerala|West Bengal|Uttar Pradesh|"
        "Haryana|Punjab|Rajasthan|Andhra Pradesh|Madhya Pradesh|Odisha|Goa"
    ),
    "BR": "Minas Gerais|Rio Grande do Sul|Parana|Paraná|Santa Catarina|Bahia|Pernambuco",
    "MX": (
        "Nuevo Leon|Nuevo León|Jalisco|Baja California|Chihuahua|Sonora|Coahuila|Guanajuato|Queretaro|"
        "Querétaro"
    ),
    "KR": "Gyeonggi|Gyeonggi-do",
    "ZA": "Gauteng|Western Cape|KwaZulu-Natal",
    "AE": "Abu Dhabi Emirate",
    "MY": "Selangor",
    "ID": "Java|Bali",
}

# Capitals and large business cities. Left out: cities whose names are common English words
# ("Nice", "Mobile", "Reading", "Bath", "Split", "Sale", "Orange", "Tours") and names shared by
# two well-known cities in different countries (those are in ``AMBIGUOUS``).
CITIES: dict[str, str] = {
    "US": (
        "New York City|NYC|Manhattan|Brooklyn|Los Angeles|San Francisco|Silicon Valley|Bay Area|"
        "San Francisco Bay Area|San Jose|Palo Alto|Mountain View|Menlo Park|Cupertino|Santa Clara|"
        "Sunnyvale|Redwood City|San Mateo|Oakland|Fremont|Milpitas|Seattle|Redmond|Bellevue|"
        "Portland|Boston|Chicago|Houston|Dallas|Austin|San Antonio|Fort Worth|Plano|Phoenix|Tempe|"
        "Scottsdale|Denver|Atlanta|Miami|Orlando|Tampa|Jacksonville|Charlotte|Raleigh|Nashville|"
        "Memphis|Louisville|Indianapolis|Columbus|Cleveland|Cincinnati|Detroit|Minneapolis|"
        "Saint Paul|Milwaukee|Saint Louis|Kansas City|Omaha|Des Moines|Pittsburgh|Philadelphia|"
        "Baltimore|Washington DC|Washington D.C.|Newark|Jersey City|Hoboken|Stamford|Hartford|"
        "Providence|New Haven|Las Vegas|Salt Lake City|Albuquerque|San Diego|Irvine|Santa Monica|"
        "Sacramento|Honolulu|Anchorage|New Orleans|Oklahoma City|Tulsa|Wilmington|Princeton|"
        "Buffalo|Rochester|Hollywood|Beverly Hills|Boca Raton|Fort Lauderdale|Durham|Chapel Hill|"
        "Research Triangle|Ann Arbor|Madison|Boise|Spokane|Tucson|El Paso|Bentonville|Armonk|"
        "White Plains|Greenwich Connecticut|Wall Street|Arlington|Bethesda|Reston|Akron|"
        "Long Island City|Long Beach|Pasadena|Santa Barbara|Carlsbad|Fort Myers|Sarasota|"
        "Grand Rapids|Cedar Rapids|Waltham|Framingham|The Woodlands|Frisco|Round Rock|"
        "Newport Beach|West Palm Beach|Palm Beach|Coral Gables|Fort Wayne|Lansing|Glendale|"
        "Santa Ana|Anaheim|Fresno|Bakersfield|Beaverton|Bothell|Emeryville|Pleasanton|"
        "San Ramon|Foster City|South San Francisco|Burbank|Torrance|El Segundo|Thousand Oaks|"
        "Los Gatos|Burlington|Chandler|Scranton|Harrisburg|Allentown|Syracuse|Albany|Dayton|"
        "Toledo Ohio|Knoxville|Chattanooga|Birmingham Alabama|Huntsville|Little Rock|Wichita|"
        "Lincoln Nebraska|Sioux Falls|Fargo|Reno|Henderson Nevada|Mesa|Lehi|Provo|Colorado Springs|"
        "Fort Collins|Greensboro|Winston-Salem|Columbia South Carolina|Charleston|Savannah|Tallahassee|"
        "Gainesville|St. Petersburg Florida|Clearwater|Naples Florida|Baton Rouge|Shreveport|"
        "Jackson Mississippi|Lexington|Eden Prairie|Northbrook|Oak Brook|Downers Grove|Lake Forest|"
        "Deerfield|Schaumburg|Naperville|Evanston|Rochester Minnesota|Richfield|Kennesaw|Alpharetta"
    ),
    "CA": (
        "Toronto|Montreal|Montréal|Vancouver|Calgary|Ottawa|Edmonton|Winnipeg|Quebec City|"
        "Mississauga|Waterloo|Kitchener|Halifax|Victoria BC|Regina|Saskatoon"
    ),
    "MX": "Mexico City|Ciudad de Mexico|Monterrey|Guadalajara|Tijuana|Puebla|Cancun|Cancún",
    "BR": (
        "Sao Paulo|São Paulo|Rio de Janeiro|Brasilia|Brasília|Belo Horizonte|Curitiba|Porto Alegre|Recife|"
        "Salvador da Bahia"
    ),
    "AR": "Buenos Aires|Rosario|Mendoza",
    "CL": "Santiago|Valparaiso",
    "PE": "Lima",
    "CO": "Bogota|Bogotá|Medellin|Medellín|Cali|Barranquilla",
    "VE": "Caracas",
    "EC": "Quito|Guayaquil",
    "UY": "Montevideo",
    "PY": "Asuncion|Asunción",
    "BO": "La Paz|Santa Cruz de la Sierra",
    "PA": "Panama City",
    "CR": "San Jose Costa Rica",
    "CU": "Havana",
    "DO": "Santo Domingo",
    "JM": "Kingston",
    "PR": "San Juan",
    "GT": "Guatemala City",
    "SV": "San Salvador",
    "HN": "Tegucigalpa|San Pedro Sula",
    "NI": "Managua",
    "TT": "Port of Spain",
    "BS": "Nassau",
    "BM": "Hamilton Bermuda",
    "KY": "George Town Cayman",
    "GB": (
        "London|City of London|Manchester|Birmingham|Edinburgh|Glasgow|Leeds|Liverpool|Bristol|"
        "Sheffield|Newcastle|Newcastle upon Tyne|Nottingham|Leicester|Southampton|Cardiff|Belfast|"
        "Aberdeen|Cambridge|Oxford|Brighton|Milton Keynes|Slough|Guildford|Coventry|Derby|York|"
        "Canary Wharf|Uxbridge|Luton|Weybridge|Basingstoke|Swindon|Stevenage|Crawley|Croydon|"
        "Watford|Hemel Hempstead|Maidenhead|Bracknell|Farnborough|Chester|Plymouth|Exeter|Norwich|"
        "Ipswich|Dundee|Inverness|Swansea|Portsmouth|Bournemouth|Wolverhampton|Stoke-on-Trent"
    ),
    "IE": "Dublin|Cork|Galway|Limerick|Shannon",
    "FR": (
        "Paris|Lyon|Marseille|Toulouse|Lille|Bordeaux|Nantes|Strasbourg|Montpellier|Rennes|"
        "Grenoble|Courbevoie|La Defense|La Défense|Boulogne-Billancourt|Issy-les-Moulineaux|"
        "Clermont-Ferrand|Rueil-Malmaison|Neuilly-sur-Seine|Saint-Denis|Levallois-Perret|"
        "Puteaux|Nanterre|Sophia Antipolis|Le Havre|Reims|Dijon|Rouen|Toulon|Cannes|Annecy"
    ),
    "DE": (
        "Berlin|Munich|München|Muenchen|Frankfurt|Frankfurt am Main|Hamburg|Cologne|Köln|Koln|"
        "Dusseldorf|Düsseldorf|Duesseldorf|Stuttgart|Dresden|Leipzig|Hanover|Hannover|Nuremberg|"
        "Nürnberg|Nurnberg|Bremen|Essen|Dortmund|Bonn|Mannheim|Karlsruhe|Wolfsburg|Ingolstadt|"
        "Walldorf|Darmstadt|Heidelberg|Bochum|Duisburg|Mainz|Wiesbaden|Augsburg|Regensburg|"
        "Freiburg|Leverkusen|Ludwigshafen|Gütersloh|Gutersloh|Herzogenaurach|Jena|Aachen|Münster|"
        "Bielefeld|Kiel|Rostock|Erlangen|Neubiberg|Grünwald|Lippstadt|Einbeck|Baden-Baden|"
        "Ulm|Kassel|Potsdam|Saarbrücken|Braunschweig|Würzburg|Osnabrück|Paderborn|Krefeld|"
        "Mönchengladbach|Wuppertal|Gelsenkirchen|Oberkochen|Schweinfurt|Friedrichshafen|"
        "Heilbronn|Reutlingen|Göttingen|Oldenburg|Lübeck|Magdeburg|Chemnitz|Halle|Erfurt|"
        "Eschborn|Bad Homburg|Unterföhring|Hanau|Offenbach"
    ),
    "CH": (
        "Zurich|Zürich|Geneva|Genève|Geneve|Genf|Basel|Basle|Bern|Berne|Lausanne|Lucerne|Luzern|"
        "Zug|Lugano|St. Gallen|Sankt Gallen|Winterthur|Schaffhausen|Vevey|Baar|Baden Switzerland|"
        "Neuchâtel|Fribourg|Rapperswil|Greifensee|Allschwil|Rotkreuz"
    ),
    "AT": "Vienna|Wien|Graz|Linz|Salzburg|Innsbruck|Klagenfurt",
    "NL": (
        "Amsterdam|Rotterdam|The Hague|Den Haag|Hague|Utrecht|Eindhoven|Veldhoven|Delft|Leiden|"
        "Groningen|Haarlem|Diemen|Hoofddorp|Nijmegen|Tilburg|Arnhem|Maastricht|Almere|Amstelveen|"
        "Schiphol|Breda|Zwolle|Enschede|Venlo|Heerlen|Den Bosch|'s-Hertogenbosch"
    ),
    "BE": (
        "Brussels|Bruxelles|Brussel|Antwerp|Antwerpen|Ghent|Gent|Liege|Liège|Leuven|Bruges|Brugge|Mechelen|"
        "Charleroi|Namur"
    ),
    "LU": "Luxembourg City",
    "ES": (
        "Madrid|Barcelona|Seville|Sevilla|Bilbao|Valencia|Malaga|Málaga|Zaragoza|Palma|"
        "Palma de Mallorca|Alicante|San Sebastian|Murcia City|Vigo|A Coruña|La Coruña|Arteixo|"
        "Pamplona|Valladolid|Las Palmas|Santander|Alcobendas|Tres Cantos"
    ),
    "PT": "Lisbon|Lisboa|Porto|Oporto|Braga|Coimbra|Faro",
    "IT": (
        "Milan|Milano|Rome|Roma|Turin|Torino|Naples|Napoli|Florence|Firenze|Venice|Venezia|Genoa|"
        "Genova|Bologna|Verona|Brescia|Bergamo|Parma|Modena|Trieste|Padua|Padova|Bari|Palermo|"
        "Catania|Maranello|Ivrea|Vicenza|Treviso|Monza"
    ),
    "SE": (
        "Stockholm|Gothenburg|Göteborg|Goteborg|Malmö|Malmo|Uppsala|Lund|Västerås|Vasteras|Södertälje|"
        "Sodertalje|Sandviken|Solna|Linköping|Helsingborg|Jönköping|Umeå|Kista|Sundbyberg"
    ),
    "NO": "Oslo|Bergen|Trondheim|Stavanger|Lysaker|Fornebu",
    "DK": "Copenhagen|København|Kobenhavn|Aarhus|Århus|Odense|Aalborg|Billund|Bagsværd|Kalundborg|Hellerup",
    "FI": "Helsinki|Espoo|Tampere|Turku|Oulu|Vantaa|Hyvinkää|Jyväskylä|Lahti",
    "IS": "Reykjavik|Reykjavík",
    "PL": (
        "Warsaw|Warszawa|Krakow|Kraków|Cracow|Wroclaw|Wrocław|Gdansk|Gdańsk|Poznan|Poznań|Lodz|Łódź|Katowice|"
        "Szczecin|Gdynia"
    ),
    "CZ": "Prague|Praha|Brno|Ostrava|Plzen|Plzeň|Mlada Boleslav|Mladá Boleslav",
    "SK": "Bratislava|Kosice|Košice",
    "HU": "Budapest|Debrecen|Szeged|Győr",
    "RO": "Bucharest|București|Cluj-Napoca|Cluj|Timisoara|Timișoara|Iasi|Iași|Brasov|Brașov|Constanta",
    "BG": "Sofia|Plovdiv|Varna",
    "GR": "Athens|Thessaloniki|Piraeus|Maroussi|Marousi",
    "CY": "Nicosia|Limassol|Larnaca",
    "MT": "Valletta",
    "SI": "Ljubljana|Maribor",
    "HR": "Zagreb|Rijeka",
    "RS": "Belgrade|Novi Sad",
    "BA": "Sarajevo",
    "ME": "Podgorica",
    "MK": "Skopje",
    "AL": "Tirana",
    "XK": "Pristina",
    "EE": "Tallinn|Tartu",
    "LV": "Riga",
    "LT": "Vilnius|Kaunas",
    "UA": "Kyiv|Kiev|Lviv|Kharkiv|Odesa|Odessa|Dnipro",
    "BY": "Minsk",
    "MD": "Chisinau|Chișinău",
    "RU": (
        "Moscow|Saint Petersburg|St. Petersburg|Novosibirsk|Yekaterinburg|Kazan|Nizhny Novgorod|Vladivostok"
    ),
    "TR": "Istanbul|Ankara|Izmir|İzmir|Bursa|Antalya",
    "GE": "Tbilisi|Batumi",
    "AM": "Yerevan",
    "AZ": "Baku",
    "KZ": "Almaty|Astana|Nur-Sultan",
    "UZ": "Tashkent",
    "TM": "Ashgabat",
    "KG": "Bishkek",
    "TJ": "Dushanbe",
    "MN": "Ulaanbaatar|Ulan Bator",
    "AE": "Dubai|Abu Dhabi|Sharjah|Ajman|Ras Al Khaimah|Jebel Ali",
    "QA": "Doha",
    "SA": "Riyadh|Jeddah|Dammam|Dhahran|Mecca|Medina|NEOM",
    "KW": "Kuwait City",
    "BH": "Manama",
    "OM": "Muscat",
    "YE": "Sanaa|Aden",
    "IL": "Tel Aviv|Jerusalem|Haifa|Herzliya|Petah Tikva|Ra'anana|Rehovot|Beersheba",
    "JO": "Amman",
    "LB": "Beirut",
    "SY": "Damascus|Aleppo",
    "IQ": "Baghdad|Erbil|Basra",
    "IR": "Tehran|Isfahan|Mashhad",
    "EG": "Cairo|Alexandria|Giza",
    "MA": "Casablanca|Rabat|Tangier|Marrakesh|Marrakech",
    "TN": "Tunis",
    "DZ": "Algiers",
    "LY": "Tripoli|Benghazi",
    "NG": "Lagos|Abuja|Port Harcourt|Kano",
    "GH": "Accra|Kumasi",
    "KE": "Nairobi|Mombasa",
    "ET": "Addis Ababa",
    "UG": "Kampala",
    "TZ": "Dar es Salaam|Dodoma",
    "RW": "Kigali",
    "ZA": "Johannesburg|Cape Town|Durban|Pretoria|Sandton|Port Elizabeth|Stellenbosch",
    "AO": "Luanda",
    "CD": "Kinshasa",
    "CG": "Brazzaville",
    "SN": "Dakar",
    "CI": "Abidjan",
    "ZW": "Harare",
    "ZM": "Lusaka",
    "MZ": "Maputo",
    "BW": "Gaborone",
    "NA": "Windhoek",
    "CM": "Douala|Yaounde|Yaoundé",
    "SD": "Khartoum",
    "MU": "Port Louis",
    "MG": "Antananarivo",
    "JP": (
        "Tokyo|Osaka|Nagoya|Yokohama|Kyoto|Kobe|Fukuoka|Sapporo|Sendai|Hiroshima|Kawasaki|"
        "Kitakyushu|Hamamatsu|Chiyoda|Minato-ku|Shinjuku|Shibuya|Marunouchi|Otemachi|Ōtemachi|"
        "Nihonbashi|Kariya|Kadoma|Otsu|Ōtsu|Kanazawa|Okayama City|Kumamoto City|Niigata City|"
        "Tsukuba|Naha|Takamatsu|Matsuyama|Utsunomiya|Chiba City|Saitama City|Minato|Chuo|Chūō|"
        "Chuo-ku|Chiyoda-ku|Shinjuku-ku|Shibuya-ku|Shinagawa|Shinagawa-ku|Ginza|Umeda|Nakanoshima|"
        "Toranomon|Akasaka|Roppongi|Shiodome|Hiratsuka|Toyota City|Urayasu|Iwata|Hamamatsucho"
    ),
    "KR": "Seoul|Busan|Pusan|Incheon|Suwon|Daejeon|Daegu|Pangyo|Seongnam|Ulsan|Gwangju|Pohang|Changwon",
    "KP": "Pyongyang",
    "CN": (
        "Beijing|Peking|Shanghai|Shenzhen|Guangzhou|Hangzhou|Suzhou|Chengdu|Wuhan|Nanjing|Tianjin|"
        "Chongqing|Xi'an|Xian|Changsha|Zhengzhou|Qingdao|Dalian|Ningbo|Xiamen|Fuzhou|Hefei|Jinan|"
        "Shenyang|Harbin|Kunming|Wuxi|Dongguan|Foshan|Zhuhai|Changzhou|Yiwu|Wenzhou|Quanzhou|"
        "Nantong|Changchun|Shijiazhuang|Taiyuan|Nanchang|Guiyang|Nanning|Lanzhou|Urumqi|Hohhot|"
        "Haikou|Sanya|Yantai|Tangshan|Huizhou|Jiaxing|Shaoxing|Xuzhou|Zhongshan|Wuhu|Zibo|Weifang"
    ),
    "HK": "Kowloon|Tsim Sha Tsui|Central Hong Kong",
    "TW": "Taipei|Hsinchu|Taichung|Kaohsiung|Tainan|Taoyuan|New Taipei",
    "SG": "Jurong|Changi|Serangoon",
    "MY": "Kuala Lumpur|Penang|Johor Bahru|Putrajaya|Cyberjaya|Petaling Jaya|Shah Alam|Kuching|Kota Kinabalu",
    "TH": "Bangkok|Chiang Mai|Pattaya|Phuket",
    "ID": "Jakarta|Surabaya|Bandung|Medan|Batam|Semarang",
    "PH": "Manila|Makati|Cebu|Quezon City|Taguig|Pasig|Davao",
    "VN": "Hanoi|Ha Noi|Ho Chi Minh City|Saigon|Da Nang|Haiphong|Hai Phong",
    "KH": "Phnom Penh",
    "MM": "Yangon|Rangoon|Naypyidaw",
    "LA": "Vientiane",
    "BN": "Bandar Seri Begawan",
    "IN": (
        "Mumbai|Bombay|Delhi|New Delhi|Bangalore|Bengaluru|Chennai|Madras|Hyderabad|Kolkata|"
        "Calcutta|Pune|Ahmedabad|Gurgaon|Gurugram|Noida|Jaipur|Chandigarh|Kochi|Cochin|Coimbatore|"
        "Indore|Lucknow|Nagpur|Surat|Vadodara|Visakhapatnam|Thiruvananthapuram|Navi Mumbai|Thane"
    ),
    "PK": "Karachi|Lahore|Islamabad|Faisalabad|Rawalpindi",
    "BD": "Dhaka|Chittagong",
    "LK": "Colombo",
    "NP": "Kathmandu",
    "AF": "Kabul",
    "AU": "Sydney|Melbourne|Brisbane|Perth|Adelaide|Canberra|Gold Coast|Hobart|Darwin|Newcastle NSW",
    "NZ": "Auckland|Wellington|Christchurch|Hamilton New Zealand|Dunedin",
    "FJ": "Suva",
    "PG": "Port Moresby",
}

# Names that stand for different places; the first reading is taken when nothing else in the
# text decides, and each later one is taken when the text also names one of its countries
# ("Atlanta, Georgia" is the US state, "Tbilisi, Georgia" the country).
AMBIGUOUS: dict[str, tuple[tuple[str, str], ...]] = {
    "Georgia": (("state", "US GE"), ("state", "US"), ("country", "GE")),
    "Birmingham": (("city", "GB"), ("city", "GB"), ("city", "US")),
    "Cambridge": (("city", "GB"), ("city", "GB"), ("city", "US")),
    "Perth": (("city", "AU"), ("city", "AU"), ("city", "GB")),
    "Dublin": (("city", "IE"), ("city", "IE"), ("city", "US")),
    "Vienna": (("city", "AT"), ("city", "AT"), ("city", "US")),
    "Richmond": (("city", "US"), ("city", "US"), ("city", "GB"), ("city", "CA")),
    "Lancaster": (("city", "US"), ("city", "US"), ("city", "GB")),
    "Hamilton": (("city", "CA"), ("city", "CA"), ("city", "BM"), ("city", "NZ"), ("city", "GB")),
    "Punjab": (("state", "IN PK"), ("state", "IN"), ("state", "PK")),
    "Hyderabad": (("city", "IN"), ("city", "IN"), ("city", "PK")),
    "Limburg": (("state", "NL"), ("state", "NL"), ("state", "BE")),
    "London": (("city", "GB"), ("city", "GB"), ("city", "CA")),
    "Kingston": (("city", "JM"), ("city", "JM"), ("city", "CA")),
    "Victoria": (("state", "AU"), ("state", "AU"), ("city", "CA")),
    "Santiago": (("city", "CL"), ("city", "CL"), ("city", "ES")),
}

# Country groups. Europe is geographic Europe without the two transcontinental giants (Russia,
# Turkey), which business usage rarely means by "European"; Asia likewise means East, South-East,
# South and Central Asia, with the Middle East its own region.
_EU27 = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE"
_EUROPE = _EU27 + " GB CH NO IS LI MC SM VA AD AL BA ME MK RS XK MD UA BY GI FO IM JE GG AX"
_WESTERN_EUROPE = "AT BE CH DE DK ES FI FR GB IE IS IT LI LU MC NL NO PT SE AD SM VA MT GR CY"
_CENTRAL_EUROPE = "DE AT CH PL CZ SK HU SI LI"
_EASTERN_EUROPE = "PL CZ SK HU RO BG EE LV LT SI HR BA RS ME MK AL XK UA BY MD RU"
_CEE = "PL CZ SK HU RO BG EE LV LT SI HR BA RS ME MK AL XK UA MD"
_SOUTHERN_EUROPE = "ES PT IT GR MT CY AD SM VA HR SI"
_NORTHERN_EUROPE = "DK FI IS NO SE EE LV LT GB IE FO AX"
_BALKANS = "SI HR BA RS ME MK AL XK BG RO GR"
_NORDIC = "DK FI IS NO SE FO GL AX"
_SCANDINAVIA = "DK NO SE FI IS"  # strictly DK NO SE; in business usage Finland and Iceland too
_EUROZONE = "AT BE HR CY EE FI FR DE GR IE IT LV LT LU MT NL PT SK SI ES"
_SOUTHEAST_ASIA = "BN KH ID LA MY MM PH SG TH VN TL"
_ASEAN = "BN KH ID LA MY MM PH SG TH VN"
_EAST_ASIA = "CN JP KR KP MN TW HK MO"
_SOUTH_ASIA = "IN PK BD LK NP BT MV AF"
_CENTRAL_ASIA = "KZ UZ TM KG TJ"
_OCEANIA = "AU NZ PG FJ SB VU WS TO KI FM MH NR PW TV NC PF GU CK NU"
_MIDDLE_EAST = "AE SA QA KW BH OM YE IQ IR IL JO LB SY PS TR EG CY"
_GCC = "AE SA QA KW BH OM"
_NORTH_AFRICA = "DZ EG LY MA TN SD EH"
_WEST_AFRICA = "BJ BF CV CI GM GH GN GW LR ML MR NE NG SN SL TG"
_EAST_AFRICA = "BI KM DJ ER ET KE MG MW MU MZ RW SC SO SS TZ UG ZM ZW"
_CENTRAL_AFRICA = "AO CM CF TD CG CD GQ GA ST"
_SOUTHERN_AFRICA = "BW LS NA ZA SZ"
_SUB_SAHARAN_AFRICA = " ".join((_WEST_AFRICA, _EAST_AFRICA, _CENTRAL_AFRICA, _SOUTHERN_AFRICA))
_AFRICA = _NORTH_AFRICA + " " + _SUB_SAHARAN_AFRICA
_MENA = _MIDDLE_EAST + " DZ LY MA TN MR"
_CENTRAL_AMERICA = "BZ CR SV GT HN NI PA"
_CARIBBEAN = "AG BS BB CU DM DO GD HT JM KN LC VC TT PR AI AW BQ VG KY CW GP MQ MS BL MF SX TC VI"
_SOUTH_AMERICA = "AR BO BR CL CO EC GY PY PE SR UY VE FK GF"
_NORTH_AMERICA = "US CA MX"
_LATIN_AMERICA = "MX " + _CENTRAL_AMERICA + " " + _SOUTH_AMERICA + " CU DO HT PR"
_AMERICAS = " ".join((_NORTH_AMERICA, _CENTRAL_AMERICA, _CARIBBEAN, _SOUTH_AMERICA))
_GREATER_CHINA = "CN HK MO TW"
_ASIA = " ".join((_EAST_ASIA, _SOUTHEAST_ASIA, _SOUTH_ASIA, _CENTRAL_ASIA))
_APAC = " ".join((_EAST_ASIA, _SOUTHEAST_ASIA, _SOUTH_ASIA, _OCEANIA))
_EMEA = " ".join((_EUROPE, _MIDDLE_EAST, _AFRICA, "RU"))

# The largest economies, largest first (nominal GDP, mid-2020s): where a region's companies mostly
# are, so a plan that can search only some of its countries starts here.
_ECONOMIES = (
    "US CN DE JP IN GB FR IT CA BR RU KR AU MX ES ID NL SA TR CH PL TW BE SE IE AR AT NO IL AE SG TH "
    "BD PH VN DK MY IR HK CO ZA EG RO CZ PK CL FI PT NZ PE KZ IQ GR DZ QA HU NG UA KW MA ET SK EC KE"
)
LARGEST_ECONOMIES = tuple(_ECONOMIES.split())

# (English names, Chinese names, countries). Plurals ("Nordics", "Baltics") are matched without
# being listed.
REGIONS: tuple[tuple[str, str, str], ...] = (
    ("DACH|D-A-CH|DACH region|German-speaking countries", "德语区|德奥瑞", "DE AT CH"),
    ("Nordic|Nordic countries|Nordic region", "北欧", _NORDIC),
    ("Scandinavia|Scandinavian", "斯堪的纳维亚", _SCANDINAVIA),
    ("Benelux", "比荷卢", "BE NL LU"),
    ("Baltic|Baltic states|Baltic countries", "波罗的海|波罗的海三国", "EE LV LT"),
    ("Iberia|Iberian|Iberian Peninsula", "伊比利亚|伊比利亚半岛", "ES PT AD"),
    ("Balkan|Balkans", "巴尔干", _BALKANS),
    ("EU|E.U.|European Union", "欧盟", _EU27),
    ("Eurozone|Euro area|Euro zone", "欧元区", _EUROZONE),
    ("Europe|European|Continental Europe", "欧洲|歐洲", _EUROPE),
    ("Western Europe|Western European|West Europe", "西欧", _WESTERN_EUROPE),
    ("Eastern Europe|Eastern European|East Europe", "东欧", _EASTERN_EUROPE),
    ("Central Europe|Central European", "中欧", _CENTRAL_EUROPE),
    (
        "Central and Eastern Europe|Central Eastern Europe|Central & Eastern Europe|CEE",
        "中东欧",
        _CEE,
    ),
    ("Southern Europe|Southern European|South Europe", "南欧", _SOUTHERN_EUROPE),
    ("Northern Europe|Northern European", "", _NORTHERN_EUROPE),
    (
        "Southeast Asia|South East Asia|South-East Asia|Southeast Asian|SEA region",
        "东南亚|東南亞",
        _SOUTHEAST_ASIA,
    ),
    ("ASEAN", "东盟", _ASEAN),
    ("East Asia|East Asian|Northeast Asia", "东亚|東亞", _EAST_ASIA),
    ("Far East", "远东", _EAST_ASIA + " " + _SOUTHEAST_ASIA),
    ("South Asia|South Asian|Indian subcontinent", "南亚", _SOUTH_ASIA),
    ("Central Asia|Central Asian", "中亚", _CENTRAL_ASIA),
    ("Asia|Asian", "亚洲|亞洲", _ASIA),
    ("Asia-Pacific|Asia Pacific|APAC|Asia Pac|Asia/Pacific", "亚太|亚太地区|亞太", _APAC),
    ("Middle East|Middle Eastern|Mideast|West Asia|Western Asia", "中东|中東|西亚", _MIDDLE_EAST),
    ("MENA|Middle East and North Africa", "中东北非", _MENA),
    (
        "GCC|Gulf|Gulf states|Gulf region|Gulf countries|Persian Gulf|Arabian Gulf|Gulf Cooperation Council",
        "海湾国家|海湾地区|海合会",
        _GCC,
    ),
    ("EMEA", "", _EMEA),
    ("Gulf of Mexico", "墨西哥湾", "US MX"),
    ("Africa|African", "非洲", _AFRICA),
    (
        "Sub-Saharan Africa|Subsaharan Africa|Sub-Saharan|Sub-Saharan African",
        "撒哈拉以南非洲|撒哈拉以南",
        _SUB_SAHARAN_AFRICA,
    ),
    ("North Africa|North African|Northern Africa", "北非", _NORTH_AFRICA),
    ("West Africa|West African", "西非", _WEST_AFRICA),
    ("East Africa|East African", "东非", _EAST_AFRICA),
    ("Southern Africa", "南部非洲", _SOUTHERN_AFRICA),
    ("Latin America|Latin American|LATAM|LatAm|Latinoamerica", "拉丁美洲|拉美", _LATIN_AMERICA),
    ("South America|South American", "南美|南美洲", _SOUTH_AMERICA),
    ("Central America|Central American", "中美洲", _CENTRAL_AMERICA),
    ("North America|North American", "北美|北美洲", _NORTH_AMERICA),
    ("Caribbean", "加勒比|加勒比海", _CARIBBEAN),
    ("Americas|the Americas", "美洲", _AMERICAS),
    ("Oceania", "大洋洲", _OCEANIA),
    ("Australasia|ANZ", "澳新", "AU NZ"),
    ("Greater China", "大中华区|大中华|大中華", _GREATER_CHINA),
    ("", "港澳台", "HK MO TW"),
    ("", "欧美", _EUROPE + " US CA"),
    ("", "日韩", "JP KR"),
)

# Chinese names beyond pycountry's zh_CN names (short forms, traditional script, old names).
CHINESE_COUNTRIES: dict[str, str] = {
    "CN": "中国|中國|中华人民共和国|中國大陸|中国大陆",
    "US": "美国|美國|美利坚|美利坚合众国",
    "GB": "英国|英國|英格兰|苏格兰|威尔士|北爱尔兰|大不列颠",
    "DE": "德国|德國",
    "FR": "法国|法國",
    "JP": "日本",
    "KR": "韩国|韓國|南韩|南韓|大韩民国",
    "KP": "朝鲜|北韩",
    "TW": "台湾|臺灣|台灣|中华民国",
    "HK": "香港",
    "MO": "澳门|澳門",
    "SG": "新加坡",
    "IT": "意大利|義大利",
    "NL": "荷兰|荷蘭",
    "CH": "瑞士",
    "AT": "奥地利|奧地利",
    "BE": "比利时|比利時",
    "ES": "西班牙",
    "PT": "葡萄牙",
    "SE": "瑞典",
    "NO": "挪威",
    "DK": "丹麦|丹麥",
    "FI": "芬兰|芬蘭",
    "IE": "爱尔兰|愛爾蘭",
    "PL": "波兰|波蘭",
    "CZ": "捷克|捷克共和国",
    "HU": "匈牙利",
    "RU": "俄罗斯|俄羅斯|俄国",
    "UA": "乌克兰",
    "TR": "土耳其",
    "GR": "希腊|希臘",
    "AU": "澳大利亚|澳洲|澳大利亞",
    "NZ": "新西兰|紐西蘭",
    "CA": "加拿大",
    "MX": "墨西哥",
    "BR": "巴西",
    "AR": "阿根廷",
    "CL": "智利",
    "CO": "哥伦比亚",
    "PE": "秘鲁",
    "IN": "印度",
    "ID": "印度尼西亚|印尼|印度尼西亞",
    "MY": "马来西亚|馬來西亞",
    "TH": "泰国|泰國",
    "VN": "越南",
    "PH": "菲律宾|菲律賓",
    "KH": "柬埔寨",
    "LA": "老挝",
    "MM": "缅甸",
    "BD": "孟加拉|孟加拉国",
    "PK": "巴基斯坦",
    "LK": "斯里兰卡",
    "SA": "沙特阿拉伯|沙特|沙烏地阿拉伯",
    "AE": "阿联酋|阿拉伯联合酋长国|阿聯酋",
    "QA": "卡塔尔",
    "KW": "科威特",
    "IL": "以色列",
    "IR": "伊朗",
    "IQ": "伊拉克",
    "EG": "埃及",
    "ZA": "南非",
    "NG": "尼日利亚",
    "KE": "肯尼亚",
    "MA": "摩洛哥",
    "KZ": "哈萨克斯坦",
    "VE": "委内瑞拉",
    "BO": "玻利维亚",
    "SY": "叙利亚",
    "MD": "摩尔多瓦",
    "GT": "危地马拉",
    "RO": "罗马尼亚",
    "LU": "卢森堡",
}
# pycountry zh_CN names that are also everyday Chinese words or parts of them:
# 海地 (Haiti) in 沿海地区, 加纳 (Ghana) in 增加纳税, 马里 (Mali) in 马里兰, 苏丹 also "sultan",
# 蒙古 in 内蒙古 (a Chinese region), 黑山 (Montenegro) a common place name, 关岛 rare.
CHINESE_EXCLUDED: frozenset[str] = frozenset({"海地", "加纳", "马里", "苏丹", "蒙古", "黑山", "多哥", "乍得"})

CHINESE_DEMONYMS: dict[str, str] = {
    "US": "美资|美企",
    "JP": "日资|日企",
    "DE": "德资|德企",
    "HK": "港资",
    "TW": "台资|台企",
    "KR": "韩资|韩企",
    "CN": "中资|中企",
    "FR": "法资",
    "GB": "英资",
}

CHINESE_STATES: dict[str, str] = {
    "US": (
        "加州|加利福尼亚|得克萨斯|德克萨斯|纽约州|佛罗里达|华盛顿州|马萨诸塞|麻省|伊利诺伊|"
        "密歇根|俄亥俄|宾夕法尼亚|宾州|新泽西|马里兰|弗吉尼亚|威斯康星|北卡罗来纳|亚利桑那|"
        "佐治亚|科罗拉多|明尼苏达|田纳西|密苏里|印第安纳|俄勒冈|内华达|犹他|夏威夷|阿拉斯加"
    ),
    "CA": "安大略|魁北克|不列颠哥伦比亚|阿尔伯塔",
    "AU": "新南威尔士|维多利亚州|昆士兰|西澳",
    "DE": "巴伐利亚|巴登-符腾堡|巴登符腾堡|北莱茵-威斯特法伦|北威州|黑森|萨克森",
    "CN": (
        "广东|浙江|江苏|山东|福建|四川|湖北|湖南|河南|河北|安徽|江西|辽宁|吉林|黑龙江|山西|陕西|"
        "云南|贵州|广西|海南|甘肃|内蒙古|新疆|西藏|宁夏|青海|珠三角|长三角|京津冀|粤港澳大湾区"
    ),
    "JP": "北海道",
    "IN": "马哈拉施特拉|卡纳塔克",
}

CHINESE_CITIES: dict[str, str] = {
    "CN": (
        "北京|上海|深圳|广州|杭州|苏州|成都|武汉|南京|天津|重庆|西安|长沙|郑州|青岛|大连|宁波|厦门|"
        "福州|合肥|济南|沈阳|哈尔滨|昆明|无锡|东莞|佛山|珠海|常州|南通|温州|泉州|烟台|石家庄|长春|"
        "南昌|贵阳|南宁|太原|兰州|乌鲁木齐|呼和浩特|三亚|义乌|惠州|嘉兴|绍兴|金华|徐州|扬州|"
        "潍坊|唐山|芜湖|中山市|台州|廣州|蘇州|杭州市|北京市|上海市|深圳市|廣東"
    ),
    "HK": "九龙|九龍|尖沙咀|中环|中環",
    "TW": "台北|臺北|新竹|高雄|桃园|桃園",
    "JP": "东京|東京|大阪|名古屋|横滨|橫濱|京都|神户|神戶|福冈|札幌|川崎",
    "KR": "首尔|首爾|釜山|仁川",
    "TH": "曼谷",
    "VN": "河内|胡志明市|胡志明|岘港",
    "MY": "吉隆坡|槟城|新山",
    "ID": "雅加达",
    "PH": "马尼拉",
    "MM": "仰光",
    "IN": "孟买|新德里|德里|班加罗尔|金奈|海得拉巴|加尔各答|浦那",
    "PK": "卡拉奇",
    "AE": "迪拜|杜拜|阿布扎比",
    "QA": "多哈",
    "SA": "利雅得|吉达",
    "IL": "特拉维夫",
    "TR": "伊斯坦布尔",
    "EG": "开罗",
    "ZA": "约翰内斯堡|开普敦",
    "NG": "拉各斯",
    "KE": "内罗毕",
    "GB": "伦敦|倫敦|曼彻斯特|伯明翰|爱丁堡|剑桥|牛津",
    "IE": "都柏林",
    "FR": "巴黎|里昂|马赛|图卢兹",
    "DE": "柏林|慕尼黑|法兰克福|汉堡|斯图加特|杜塞尔多夫|科隆|沃尔夫斯堡|纽伦堡|汉诺威|莱比锡|德累斯顿",
    "CH": "苏黎世|蘇黎世|日内瓦|巴塞尔|伯尔尼|洛桑|楚格",
    "AT": "维也纳",
    "NL": "阿姆斯特丹|鹿特丹|海牙|埃因霍温",
    "BE": "布鲁塞尔|安特卫普",
    "IT": "米兰|罗马|都灵|威尼斯|佛罗伦萨|那不勒斯",
    "ES": "马德里|巴塞罗那|瓦伦西亚",
    "PT": "里斯本",
    "SE": "斯德哥尔摩|哥德堡",
    "NO": "奥斯陆",
    "DK": "哥本哈根",
    "FI": "赫尔辛基",
    "PL": "华沙",
    "CZ": "布拉格",
    "HU": "布达佩斯",
    "GR": "雅典",
    "RU": "莫斯科|圣彼得堡",
    "UA": "基辅",
    "US": (
        "纽约|紐約|洛杉矶|洛杉磯|旧金山|舊金山|三藩市|硅谷|矽谷|西雅图|芝加哥|波士顿|休斯顿|达拉斯|"
        "奥斯汀|亚特兰大|迈阿密|华盛顿|华盛顿特区|底特律|费城|拉斯维加斯|圣何塞|帕洛阿尔托|匹兹堡|"
        "丹佛|凤凰城|明尼阿波利斯|圣迭戈"
    ),
    "CA": "多伦多|温哥华|蒙特利尔|渥太华|卡尔加里",
    "MX": "墨西哥城",
    "BR": "圣保罗|里约热内卢|巴西利亚",
    "AR": "布宜诺斯艾利斯",
    "AU": "悉尼|墨尔本|布里斯班|珀斯|堪培拉",
    "NZ": "惠灵顿",
}

# Words that only name a place when written with a capital, because in lower case they are
# ordinary English: "polish the floor", "chad", "jordan" (a name), "guinea pig", "jersey", "cork".
CAPITALISED_ONLY: frozenset[str] = frozenset(
    {
        "polish",
        "pole",
        "chad",
        "jordan",
        "guinea",
        "jersey",
        "reunion",
        "chile",
        "cork",
        "derby",
        "phoenix",
        "buffalo",
        "providence",
        "victoria",
        "wellington",
        "lima",
        "bologna",
        "cologne",
        "muscat",
        "kiwi",
        "saga",
        "burgundy",
        "gulf",
        "limerick",
        "welsh",
        "madison",
        "charlotte",
        "durham",
        "halle",
        "mie",
        "nara",
        "kingston",
        "shannon",
        "regina",
        "mendoza",
        "darwin",
        "medina",
        "aden",
        "lao",
        "ulm",
        "turk",
        "scot",
        "brit",
        "dane",
        "finn",
        "swede",
        "york",
        "chester",
        "palma",
        "faro",
        "bergen",
        "sandton",
        "waterloo",
        "halifax",
        "plymouth",
        "goa",
        "java",
        "bali",
        "tibet",
        "essen",
        "anz",
        "cali",
        "kariya",
        "naha",
        "chandler",
        "mesa",
        "reno",
        "deerfield",
        "lexington",
        "savannah",
        "charleston",
        "burlington",
        "hamilton",
        "richmond",
        "lancaster",
    }
)
# Words that only name a place written entirely in capitals: "US" but not "us".
UPPERCASE_ONLY: frozenset[str] = frozenset({"us", "u s", "sea region"})
